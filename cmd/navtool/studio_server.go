package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
)

// studioFiles is the page: HTML, script, style and the pinned three.js
// (vendor/three, with its licence).
//
//go:embed studio
var studioFiles embed.FS

// maxStudioBody bounds a request body [Units: bytes].
const maxStudioBody = 1 << 20

// handler returns the studio's routes behind the guard that checks every
// request's Host and Origin against addr, the address the server listens
// on.
func (s *studio) handler(addr string) http.Handler {
	static, err := fs.Sub(studioFiles, "studio")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", noStore(http.FileServerFS(static)))
	mux.HandleFunc("GET /api/state", s.serveState)
	mux.HandleFunc("GET /api/layer/{name}", s.serveLayer)
	mux.HandleFunc("POST /api/bake", s.serveBake)
	mux.HandleFunc("POST /api/bake/cancel", s.serveBakeCancel)
	mux.HandleFunc("POST /api/query", s.serveQuery)
	mux.HandleFunc("POST /api/crowd", s.serveCrowd)
	mux.HandleFunc("GET /api/events", s.serveEvents)
	mux.HandleFunc("GET /api/settings.json", s.serveSettingsFile)
	mux.HandleFunc("GET /api/navmesh", s.serveNavMeshFile)
	if s.selftest != nil {
		mux.Handle("GET /selftest/", s.selftest)
		mux.Handle("POST /selftest/", s.selftest)
	}
	return guardStudio(addr, mux)
}

// noStore keeps browsers from caching the page across studio versions.
func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// guardStudio refuses requests that did not come from the studio's own
// page on this machine: the Host header must name the listening address
// (a loopback name for its port), so that a web page on another domain
// cannot reach the studio by pointing that domain at 127.0.0.1 (DNS
// rebinding); a request with an Origin (or Sec-Fetch-Site saying
// cross-site) must come from the same origin. Bodies are bounded.
func guardStudio(addr string, next http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	allowed := map[string]bool{
		addr:                          true,
		"127.0.0.1:" + port:           true,
		"localhost:" + port:           true,
		"[::1]:" + port:               true,
		net.JoinHostPort("::1", port): true,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[r.Host] {
			http.Error(w, "unknown host "+strconv.Quote(r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && origin != "null" {
			host, ok := strings.CutPrefix(origin, "http://")
			if !ok || !allowed[host] {
				http.Error(w, "cross-origin request refused", http.StatusForbidden)
				return
			}
		} else if origin == "null" {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			http.Error(w, "cross-site request refused", http.StatusForbidden)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		r.Body = http.MaxBytesReader(w, r.Body, maxStudioBody)
		next.ServeHTTP(w, r)
	})
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// writeError answers an error as JSON {"error": ...}.
func writeError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// readJSON decodes a request body into v, refusing unknown keys and
// trailing data.
func readJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}

// studioState is GET /api/state: everything the page shows but the layers
// and the crowd frames.
type studioState struct {
	Input    string         `json:"input"`
	Kind     string         `json:"kind"`
	Version  uint64         `json:"version"`
	Settings map[string]any `json:"settings"`
	// Defaults are RecastDemo's settings, for the page's Defaults button.
	Defaults map[string]any  `json:"defaults"`
	Controls []studioControl `json:"controls"`
	Layers   []studioLayer   `json:"layers"`
	// BakeLayers says whether the bake's stage layers can be drawn.
	BakeLayers bool             `json:"bakeLayers"`
	Report     *bakeReport      `json:"report"`
	Mesh       *infoReport      `json:"mesh"`
	Bake       *studioBakeState `json:"bake"`
	Limits     map[string]any   `json:"limits"`
}

// studioBakeState is the last bake's progress.
type studioBakeState struct {
	ID        int     `json:"id"`
	State     string  `json:"state"`
	Done      int     `json:"done"`
	Total     int     `json:"total"`
	ElapsedMs float64 `json:"elapsedMs"`
	Error     string  `json:"error,omitempty"`
}

func (s *studio) serveState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	state := studioState{
		Input: s.input, Kind: s.kind, Version: s.version,
		Settings: studioSettingsFile(s.settings), Defaults: studioSettingsFile(s.defaultSettings()), Controls: studioControls, Layers: studioLayers,
		BakeLayers: s.solo != nil && s.solo.CompactHeightfield != nil,
		Report:     s.report,
		Mesh:       buildInfoReport(s.input, 0, s.mesh),
		Limits: map[string]any{"bakeTimeoutS": s.limits.bakeTimeout.Seconds(), "maxMemoryMB": s.limits.maxMemory >> 20,
			"maxAgents": s.limits.maxAgents, "maxObstacles": s.limits.maxObstacles},
	}
	state.Mesh.PerTile = nil
	state.Mesh.Format = ""
	if s.job != nil {
		j := s.job
		state.Bake = &studioBakeState{ID: j.id, State: j.state, Done: j.done, Total: j.total, Error: j.err}
		elapsed := j.finishedIn
		if j.state == "running" {
			elapsed = time.Since(j.began)
		}
		state.Bake.ElapsedMs = float64(elapsed.Microseconds()) / 1000
	}
	s.mu.Unlock()
	writeJSON(w, state)
}

func (s *studio) serveLayer(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.Lock()
	if v := r.URL.Query().Get("v"); v != "" && v != strconv.FormatUint(s.version, 10) {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, fmt.Errorf("version %s is gone: the navmesh is version %d now", v, s.version))
		return
	}
	data, err := s.layer(name)
	s.mu.Unlock()
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

func (s *studio) serveBake(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, err)
		return
	}
	id, err := s.startBake(body)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	s.events.publish("state", nil)
	writeJSON(w, map[string]int{"id": id})
}

func (s *studio) serveBakeCancel(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]bool{"cancelled": s.cancelBake()})
}

func (s *studio) serveCrowd(w http.ResponseWriter, r *http.Request) {
	var req studioCrowdRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	frame, err := s.crowdDo(req)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(frame)
}

// serveSettingsFile answers the settings of the navmesh shown as the file
// `navtool bake -config` reads.
func (s *studio) serveSettingsFile(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	settings := studioSettingsFile(s.settings)
	s.mu.Unlock()
	w.Header().Set("Content-Disposition", `attachment; filename="settings.json"`)
	body, _ := json.MarshalIndent(settings, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(body, '\n'))
}

// serveNavMeshFile answers the navmesh shown as a file: ?format=own (the
// default, navmesh.Save) or mset (RecastDemo's tile set).
func (s *studio) serveNavMeshFile(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "own"
	}
	var buf bytes.Buffer
	var err error
	s.mu.Lock()
	switch format {
	case "own":
		err = navmesh.Save(&buf, s.mesh)
	case "mset":
		err = navmesh.WriteMSET(&buf, navmesh.TileSetFromMesh(s.mesh))
	default:
		err = fmt.Errorf("format %q: want own or mset", format)
	}
	s.mu.Unlock()
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	name := "level.navmesh"
	if format == "mset" {
		name = "level.mset"
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(buf.Bytes())
}
