package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// newTestStudio opens the studio on the dungeon and returns its handler,
// as served on 127.0.0.1:8123.
func newTestStudio(t *testing.T) (*studio, http.Handler) {
	t.Helper()
	s, err := newStudio("../../testdata/dungeon.obj", defaultStudioLimits())
	require.NoError(t, err)
	t.Cleanup(s.close)
	return s, s.handler("127.0.0.1:8123")
}

// do sends one request to h as a same-origin page would.
func do(h http.Handler, method, path, body string, headers map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://127.0.0.1:8123"+path, strings.NewReader(body))
	for k, v := range headers {
		if k == "Host" {
			r.Host = v
			continue
		}
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestStudioGuard checks that only the studio's own page on this machine
// gets answers: a foreign Host (DNS rebinding), a foreign Origin or a
// cross-site fetch is refused, and bodies are bounded.
func TestStudioGuard(t *testing.T) {
	_, h := newTestStudio(t)
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		headers map[string]string
		want    int
	}{
		{"page", "GET", "/", "", nil, http.StatusOK},
		{"three.js", "GET", "/vendor/three/three.module.js", "", nil, http.StatusOK},
		{"favicon", "GET", "/favicon.ico", "", nil, http.StatusOK}, // a 404 is a console error in the browser
		{"state", "GET", "/api/state", "", nil, http.StatusOK},
		{"localhost", "GET", "/api/state", "", map[string]string{"Host": "localhost:8123"}, http.StatusOK},
		{"same origin", "POST", "/api/query", `{"kind":"nearest","start":[0,0,0]}`, map[string]string{"Origin": "http://127.0.0.1:8123"}, http.StatusOK},
		{"rebinding host", "GET", "/api/state", "", map[string]string{"Host": "attacker.example:8123"}, http.StatusForbidden},
		{"other port", "GET", "/api/state", "", map[string]string{"Host": "127.0.0.1:9999"}, http.StatusForbidden},
		{"foreign origin", "POST", "/api/crowd", `{"op":"pause"}`, map[string]string{"Origin": "http://attacker.example"}, http.StatusForbidden},
		{"null origin", "POST", "/api/bake/cancel", ``, map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"https origin", "POST", "/api/bake/cancel", ``, map[string]string{"Origin": "https://127.0.0.1:8123"}, http.StatusForbidden},
		{"cross-site fetch", "GET", "/api/navmesh", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"too large", "POST", "/api/bake", `{"cellSize":` + strings.Repeat(" ", maxStudioBody) + `0.3}`, nil, http.StatusRequestEntityTooLarge},
		{"no file outside the page", "GET", "/vendor/../../studio.go", "", nil, http.StatusTemporaryRedirect}, // to /studio.go: 404
		{"no go source", "GET", "/studio.go", "", nil, http.StatusNotFound},
		{"selftest is off", "GET", "/selftest/check.js", "", nil, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(h, tt.method, tt.path, tt.body, tt.headers)
			assert.Equal(t, tt.want, w.Code, w.Body.String())
		})
	}
}

func TestStudioLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "localhost:8080", "[::1]:0", "127.0.0.2:80"} {
		assert.NoError(t, checkLoopback(addr), addr)
	}
	for _, addr := range []string{"0.0.0.0:8080", ":8080", "192.168.1.2:80", "example.com:80", "nonsense"} {
		assert.Error(t, checkLoopback(addr), addr)
	}
}

// TestStudioBake rebakes through the endpoint: good settings give navtool
// bake's mesh, bad ones an error that changes nothing.
func TestStudioBake(t *testing.T) {
	s, h := newTestStudio(t)
	first := state(t, h)
	require.Equal(t, "obj", first.Kind)
	assert.Equal(t, bakePolys(t, ""), first.Mesh.Polys)
	assert.Equal(t, first.Mesh.Polys, first.Report.Polys)
	assert.True(t, first.BakeLayers)

	bad := []struct{ name, body, want string }{
		{"unknown key", `{"cellSise": 0.3}`, `cellSise`},
		{"invalid value", `{"vertsPerPoly": 9}`, "VertsPerPoly 9 must be 3..6"},
		{"grid too fine", `{"cellSize": 0.015}`, "MiB, the limit is 1024 MiB"},
		{"grid past int32", `{"cellSize": 0.001}`, "cells"},
		{"memory above the studio's limit", `{"maxMemoryMB": 100000}`, "at most 1024"},
		{"not JSON", `cellSize=0.3`, "invalid character"},
	}
	for _, tt := range bad {
		w := do(h, "POST", "/api/bake", tt.body, nil)
		assert.Equal(t, http.StatusUnprocessableEntity, w.Code, tt.name)
		assert.Contains(t, w.Body.String(), tt.want, tt.name)
	}
	assert.Equal(t, first.Version, state(t, h).Version, "refused settings change nothing")

	w := do(h, "POST", "/api/bake", `{"agentRadius": 1.2, "tileSize": 32}`, nil)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	after := waitBake(t, h)
	assert.Equal(t, "done", after.Bake.State)
	assert.Greater(t, after.Version, first.Version)
	assert.Equal(t, "tiled", after.Report.Mode)
	assert.False(t, after.BakeLayers, "a tiled bake keeps no stages")
	assert.Positive(t, after.Bake.Total, "a tiled bake reports its tiles")
	assert.Equal(t, after.Bake.Total, after.Bake.Done)

	// The settings file the page saves is what navtool bake -config reads.
	saved := do(h, "GET", "/api/settings.json", "", nil)
	require.Equal(t, http.StatusOK, saved.Code)
	var level bake.Geometry
	parsed, err := parseBakeSettings(saved.Body.Bytes(), &level, defaultBakeSettings())
	require.NoError(t, err)
	s.mu.Lock()
	want := s.settings
	s.mu.Unlock()
	assert.Equal(t, want, parsed)
	assert.InDelta(t, 1.2, parsed.AgentRadius, 1e-6)
	assert.Equal(t, 32, parsed.TileSize)

	// A stage layer of a tiled bake is refused with the reason.
	w = do(h, "GET", "/api/layer/contours", "", nil)
	assert.Equal(t, http.StatusUnprocessableEntity, w.Code)
	assert.Contains(t, w.Body.String(), "solo bake")
	w = do(h, "GET", "/api/layer/nonsense", "", nil)
	assert.Contains(t, w.Body.String(), "unknown layer")
	w = do(h, "GET", "/api/layer/polygons?v=1", "", nil)
	assert.Equal(t, http.StatusConflict, w.Code, "an old version's layer")
}

// TestStudioBakeCancel cancels a bake that would take long: it stops, and
// the navmesh shown stays the one before.
func TestStudioBakeCancel(t *testing.T) {
	_, h := newTestStudio(t)
	first := state(t, h)
	// A fine grid in small tiles: seconds of work.
	w := do(h, "POST", "/api/bake", `{"cellSize": 0.1, "cellHeight": 0.1, "tileSize": 16}`, nil)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	w = do(h, "POST", "/api/bake/cancel", "", nil)
	assert.JSONEq(t, `{"cancelled": true}`, w.Body.String())
	after := waitBake(t, h)
	assert.Equal(t, "cancelled", after.Bake.State)
	assert.Equal(t, first.Version, after.Version)
	assert.Equal(t, first.Mesh.Polys, after.Mesh.Polys)
}

func TestStudioBakeTimeout(t *testing.T) {
	limits := defaultStudioLimits()
	limits.bakeTimeout = time.Millisecond
	s, err := newStudio("../../testdata/dungeon.obj", defaultStudioLimits())
	require.NoError(t, err)
	defer s.close()
	s.limits = limits
	h := s.handler("127.0.0.1:8123")
	w := do(h, "POST", "/api/bake", `{"cellSize": 0.1, "cellHeight": 0.1, "tileSize": 16}`, nil)
	require.Equal(t, http.StatusOK, w.Code)
	after := waitBake(t, h)
	assert.Equal(t, "failed", after.Bake.State)
	assert.Contains(t, after.Bake.Error, "-bake-timeout")
}

func state(t *testing.T, h http.Handler) studioState {
	t.Helper()
	w := do(h, "GET", "/api/state", "", nil)
	require.Equal(t, http.StatusOK, w.Code)
	var st studioState
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
	return st
}

func waitBake(t *testing.T, h http.Handler) studioState {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		st := state(t, h)
		if st.Bake != nil && st.Bake.State != "running" {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the bake did not finish")
	return studioState{}
}

// TestStudioQueries checks the three queries: the path is navtool query's
// row for the same points (on the C++ reference pairs' first rows), a
// raycast stops at a wall or reaches the end, the nearest polygon lies
// within the search box.
func TestStudioQueries(t *testing.T) {
	s, _ := newTestStudio(t)
	pairs := readCSV(t, "../../testdata/query_dungeon.csv")
	cols := columns(pairs[0])
	meshFile := filepath.Join(t.TempDir(), "dungeon.navmesh")
	var buf bytes.Buffer
	require.NoError(t, navmesh.Save(&buf, s.mesh))
	require.NoError(t, os.WriteFile(meshFile, buf.Bytes(), 0o644))
	for row := 1; row <= 20; row++ {
		var start, end [3]float32
		for i, name := range []string{"sx", "sy", "sz"} {
			start[i] = float32(number(t, pairs[row][cols[name]]))
		}
		for i, name := range []string{"ex", "ey", "ez"} {
			end[i] = float32(number(t, pairs[row][cols[name]]))
		}
		res, err := runStudioQuery(s.mesh, studioQueryRequest{Kind: "path", Start: start, End: &end})
		require.NoError(t, err)
		want := queryOne(t, meshFile, start, end)
		assert.Equal(t, want["npolys"], strconv.Itoa(res.Polys), "row %d", row)
		assert.Equal(t, want["nstraight"], strconv.Itoa(res.Straight), "row %d", row)
		assert.Equal(t, want["len3d"], fmt.Sprintf("%.9g", res.Length3D), "row %d", row)
		assert.Equal(t, want["partial"], map[bool]string{true: "1", false: "0"}[res.Partial], "row %d", row)
		assert.Len(t, res.Corridor, res.Polys)
		assert.Len(t, res.Points, res.Straight)
	}

	// A raycast across the first room hits nothing; one through the wall
	// of the corridor hits it.
	start := [3]float32{-9.17, 10.2, -20.34}
	near := [3]float32{-7.5, 10.2, -19}
	res, err := runStudioQuery(s.mesh, studioQueryRequest{Kind: "raycast", Start: start, End: &near})
	require.NoError(t, err)
	assert.False(t, res.Hit)
	assert.Equal(t, float32(1), res.T)
	far := [3]float32{-9.17, 10.2, 40}
	res, err = runStudioQuery(s.mesh, studioQueryRequest{Kind: "raycast", Start: start, End: &far})
	require.NoError(t, err)
	assert.True(t, res.Hit)
	assert.Less(t, res.T, float32(1))
	assert.InDelta(t, 1, math.Hypot(float64(res.HitNormal[0]), float64(res.HitNormal[2])), 1e-4, "a unit wall normal")

	res, err = runStudioQuery(s.mesh, studioQueryRequest{Kind: "nearest", Start: [3]float32{-9.17, 11.5, -20.34}})
	require.NoError(t, err)
	require.True(t, res.StartFound)
	assert.InDelta(t, 1.3, res.Distance, 0.3, "the point below on the floor")

	for _, bad := range []studioQueryRequest{
		{Kind: "path", Start: start},
		{Kind: "teleport", Start: start, End: &far},
		{Kind: "nearest", Start: [3]float32{float32(math.NaN()), 0, 0}},
	} {
		_, err := runStudioQuery(s.mesh, bad)
		assert.Error(t, err, "%+v", bad)
	}
}

// TestStudioCrowd spawns agents, sends them to a target and steps: they
// walk; bad requests are refused.
func TestStudioCrowd(t *testing.T) {
	_, h := newTestStudio(t)
	post := func(body string) (studioFrame, int, string) {
		w := do(h, "POST", "/api/crowd", body, nil)
		var f studioFrame
		json.Unmarshal(w.Body.Bytes(), &f)
		return f, w.Code, w.Body.String()
	}
	f, code, body := post(`{"op":"spawn","pos":[-9.17,10.2,-20.34]}`)
	require.Equal(t, http.StatusOK, code, body)
	require.Len(t, f.Agents, 1)
	_, code, body = post(`{"op":"target","pos":[11.22,10.2,-0.93]}`)
	require.Equal(t, http.StatusOK, code, body)
	_, code, _ = post(`{"op":"scatter","count":5}`)
	require.Equal(t, http.StatusOK, code)
	_, code, _ = post(`{"op":"obstacle-add","pos":[-5,10.2,-15]}`)
	require.Equal(t, http.StatusOK, code)
	_, code, _ = post(`{"op":"obstacle-move","id":0,"pos":[-4,10.2,-15]}`)
	require.Equal(t, http.StatusOK, code)
	for range 30 {
		f, code, body = post(`{"op":"step"}`)
		require.Equal(t, http.StatusOK, code, body)
	}
	assert.Equal(t, 30, f.Tick)
	require.Len(t, f.Agents, 6)
	require.Len(t, f.Obstacles, 1)
	assert.Equal(t, [3]float32{-4, 10.2, -15}, f.Obstacles[0].Pos)
	assert.False(t, f.Obstacles[0].Carving, "a plain navmesh's obstacles are avoided")
	moved := math.Hypot(float64(f.Agents[0][0]+9.17), float64(f.Agents[0][2]+20.34))
	assert.Greater(t, moved, 2.0, "the first agent walked towards the target")

	for _, bad := range []struct{ body, want string }{
		{`{"op":"spawn"}`, "needs a position"},
		{`{"op":"spawn","pos":[500,0,500]}`, "not on the navmesh"},
		{`{"op":"scatter","count":100000}`, "max-agents"},
		{`{"op":"obstacle-remove","id":7}`, "no obstacle 7"},
		{`{"op":"fly"}`, "unknown crowd op"},
		{`{"op":"spawn","pos":[1,2,3],"extra":1}`, "unknown field"},
	} {
		_, code, body := post(bad.body)
		assert.NotEqual(t, http.StatusOK, code, bad.body)
		assert.Contains(t, body, bad.want, bad.body)
	}
	_, code, _ = post(`{"op":"obstacle-remove","id":0}`)
	assert.Equal(t, http.StatusOK, code)
	f, _, _ = post(`{"op":"clear"}`)
	assert.Empty(t, f.Agents)
}

// TestStudioLayerEncoding decodes an encoded recording as the page does
// and gets the primitives back.
func TestStudioLayerEncoding(t *testing.T) {
	var rec debugdraw.Recorder
	red, green := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 128}
	rec.Triangle(mgl32.Vec3{0, 1, 2}, mgl32.Vec3{3, 4, 5}, mgl32.Vec3{6, 7, 8}, red)
	rec.Line(mgl32.Vec3{1, 1, 1}, mgl32.Vec3{2, 2, 2}, 3, green)
	rec.Point(mgl32.Vec3{9, 9, 9}, 6, red)
	rec.Line(mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{-2, -2, -2}, 1, red)
	data, err := encodeLayer(&rec)
	require.NoError(t, err)
	r := bytes.NewReader(data)
	var counts [3]uint32
	require.NoError(t, binary.Read(r, binary.LittleEndian, &counts))
	assert.Equal(t, [3]uint32{3, 4, 1}, counts)
	var triPos [9]float32
	var triCol [12]uint8
	require.NoError(t, binary.Read(r, binary.LittleEndian, &triPos))
	require.NoError(t, binary.Read(r, binary.LittleEndian, &triCol))
	assert.Equal(t, [9]float32{0, 1, 2, 3, 4, 5, 6, 7, 8}, triPos)
	assert.Equal(t, [12]uint8{255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255}, triCol)
	var linePos [12]float32
	var lineCol [16]uint8
	var lineWidth [2]float32
	require.NoError(t, binary.Read(r, binary.LittleEndian, &linePos))
	require.NoError(t, binary.Read(r, binary.LittleEndian, &lineCol))
	require.NoError(t, binary.Read(r, binary.LittleEndian, &lineWidth))
	assert.Equal(t, [12]float32{1, 1, 1, 2, 2, 2, -1, -1, -1, -2, -2, -2}, linePos)
	assert.Equal(t, uint8(128), lineCol[3])
	assert.Equal(t, [2]float32{3, 1}, lineWidth)
	var pointPos [3]float32
	var pointCol [4]uint8
	var pointSize float32
	require.NoError(t, binary.Read(r, binary.LittleEndian, &pointPos))
	require.NoError(t, binary.Read(r, binary.LittleEndian, &pointCol))
	require.NoError(t, binary.Read(r, binary.LittleEndian, &pointSize))
	assert.Equal(t, float32(6), pointSize)
	rest, _ := io.ReadAll(r)
	assert.Empty(t, rest)
}

// TestStudioLayers draws every layer of a solo bake: each has primitives
// (the obstacles layer of a level without a tile cache excepted).
func TestStudioLayers(t *testing.T) {
	_, h := newTestStudio(t)
	for _, layer := range studioLayers {
		w := do(h, "GET", "/api/layer/"+layer.Name, "", nil)
		require.Equal(t, http.StatusOK, w.Code, "%s: %s", layer.Name, w.Body.String())
		var counts [3]uint32
		require.NoError(t, binary.Read(bytes.NewReader(w.Body.Bytes()), binary.LittleEndian, &counts))
		total := counts[0] + counts[1] + counts[2]
		if layer.Name == "obstacles" || layer.Name == "links" {
			assert.Zero(t, total, layer.Name)
			continue
		}
		assert.Positive(t, total, layer.Name)
	}
}

// TestStudioFiles opens a navmesh file and a tile cache file: no bake, and
// a tile cache's obstacles carve.
func TestStudioFiles(t *testing.T) {
	s, err := newStudio("../../testdata/navmesh_solo_dungeon.bin", defaultStudioLimits())
	require.NoError(t, err)
	defer s.close()
	assert.Equal(t, "navmesh", s.kind)
	_, err = s.startBake([]byte(`{}`))
	assert.ErrorContains(t, err, "no level to bake")

	tc, err := newStudio("../../navcore/tilecache/testdata/tc48_dungeon.tset", defaultStudioLimits())
	require.NoError(t, err)
	defer tc.close()
	assert.Equal(t, "tilecache", tc.kind)
	frame, err := tc.crowdDo(studioCrowdRequest{Op: "obstacle-add", Pos: &[3]float32{-5, 10.2, -15}})
	require.NoError(t, err)
	var f studioFrame
	require.NoError(t, json.Unmarshal(frame, &f))
	require.Len(t, f.Obstacles, 1)
	assert.True(t, f.Obstacles[0].Carving)
	version := tc.version
	for range 40 {
		_, err = tc.crowdDo(studioCrowdRequest{Op: "step"})
		require.NoError(t, err)
	}
	assert.Greater(t, tc.version, version, "the carve landed: the page draws the navmesh again")

	_, err = newStudio("studio_test.go", defaultStudioLimits())
	assert.ErrorContains(t, err, "neither a level")
	_, err = newStudio("no-such-file.obj", defaultStudioLimits())
	assert.Error(t, err)
}
