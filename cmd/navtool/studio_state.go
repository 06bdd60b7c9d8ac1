package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// studio is the state behind the studio's page: the level, the settings,
// the navmesh of the last bake, the crowd. Every tab of the page shows this
// one state; the server owns it and the page only draws it.
type studio struct {
	limits studioLimits
	// input is the file named on the command line; kind says what it is:
	// "obj", "navmesh" or "tilecache".
	input, kind string

	// events fans the crowd's frames and the state changes out to the
	// open tabs.
	events *studioEvents

	mu sync.Mutex
	// level is the OBJ level (nil for a navmesh or tile cache input).
	level *bake.Geometry
	// settings are the settings of the last bake that succeeded.
	settings bake.Settings
	// version counts the navmeshes shown: it changes whenever a bake
	// succeeds, so that the page knows to fetch the layers again.
	version uint64
	mesh    *navmesh.Mesh
	cache   *tilecache.Cache
	// solo is the last solo bake with its intermediates (nil after a
	// tiled bake and for files).
	solo *bake.SoloResult
	// report is `navtool bake -json`'s report of the last bake.
	report *bakeReport
	// layers holds the encoded drawing layers of this version.
	layers map[string][]byte
	job    *studioBake
	crowd  *studioCrowd
	closed bool

	// selftest, when set (by the browser tests only), serves /selftest/:
	// the script a page opened with ?selftest=NAME loads, and the endpoint
	// it reports to.
	selftest http.Handler
}

// studioBake is a bake running on the server (or the last one).
type studioBake struct {
	// id numbers the bakes from 1.
	id     int
	cancel context.CancelFunc
	began  time.Time

	// Guarded by studio.mu.
	state      string // running, done, failed, cancelled
	done       int    // tiles done (tiled bakes)
	total      int    // tiles to bake (tiled bakes)
	err        string
	finishedIn time.Duration
}

// newStudio loads the file the studio shows: an OBJ level is baked with
// RecastDemo's default settings (solo), a navmesh or tile cache file is
// shown as it is.
func newStudio(path string, limits studioLimits) (*studio, error) {
	s := &studio{limits: limits, input: path, events: newStudioEvents(), layers: map[string][]byte{}}
	s.settings = s.defaultSettings()
	if strings.EqualFold(filepath.Ext(path), ".obj") {
		level, err := bake.LoadOBJ(path)
		if err != nil {
			return nil, err
		}
		s.kind, s.level = "obj", level
		ctx, cancel := context.WithTimeout(context.Background(), limits.bakeTimeout)
		defer cancel()
		if err := s.bakeNow(ctx, s.settings, s.level, nil); err != nil {
			return nil, fmt.Errorf("%s: the first bake: %w", path, err)
		}
		return s, nil
	}
	mesh, _, meshErr := navmesh.LoadFile(path)
	if meshErr == nil {
		s.kind = "navmesh"
		s.install(mesh, nil, nil, nil, s.settings)
		return s, nil
	}
	cache, cacheErr := loadCrowdTileCache(path, 0)
	if cacheErr == nil {
		s.kind = "tilecache"
		s.install(cache.Mesh(), cache, nil, nil, s.settings)
		return s, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s: neither a level (.obj), a navmesh (%v) nor a tile cache (%v)", path, meshErr, cacheErr)
}

// defaultSettings are RecastDemo's solo settings under the studio's
// memory limit.
func (s *studio) defaultSettings() bake.Settings {
	settings := defaultBakeSettings()
	settings.MaxMemory = s.limits.maxMemory
	return settings
}

// close stops the crowd, a running bake and the event streams.
func (s *studio) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	if s.job != nil && s.job.state == "running" {
		s.job.cancel()
	}
	crowd := s.crowd
	s.crowd = nil
	s.mu.Unlock()
	if crowd != nil {
		crowd.close()
	}
	s.events.close()
}

// install makes mesh the one shown (with s.mu held or before the server
// starts): a new version, its layers drawn afresh, the crowd dropped.
func (s *studio) install(mesh *navmesh.Mesh, cache *tilecache.Cache, solo *bake.SoloResult, report *bakeReport, settings bake.Settings) {
	s.mesh, s.cache, s.solo, s.report, s.settings = mesh, cache, solo, report, settings
	s.version++
	s.layers = map[string][]byte{}
	if s.crowd != nil {
		go s.crowd.close()
		s.crowd = nil
	}
}

// bakeNow bakes level with settings and installs the result; progress, if
// set, hears of every tile of a tiled bake.
func (s *studio) bakeNow(ctx context.Context, settings bake.Settings, level *bake.Geometry, progress func(done, total int)) error {
	report := &bakeReport{Input: s.input, InputVertices: len(level.Vertices), InputTriangles: len(level.Triangles)}
	var mesh *navmesh.Mesh
	var solo *bake.SoloResult
	if settings.TileSize == 0 {
		result, err := bake.Solo(ctx, level, settings, bake.WithIntermediates())
		if err != nil {
			return err
		}
		report.setSolo(result)
		if mesh, err = result.NavMesh(); err != nil {
			return err
		}
		solo = result
	} else {
		result, err := bake.Tiled(ctx, level, settings, bake.TiledOptions{Progress: progress})
		if err != nil {
			return err
		}
		if err := report.setTiled(result); err != nil {
			return err
		}
		if mesh, err = result.NavMesh(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	s.install(mesh, nil, solo, report, settings)
	return nil
}

// startBake checks a settings file (the JSON `navtool bake -config` reads)
// and bakes it on its own goroutine, cancelling a bake still running. The
// bake stops after the studio's time limit.
func (s *studio) startBake(settingsJSON []byte) (int, error) {
	if s.level == nil {
		return 0, fmt.Errorf("%s is a %s file: there is no level to bake", s.input, s.kind)
	}
	// The settings file may add volumes and connections: to a copy.
	level := *s.level
	level.ConvexVolumes = append([]bake.ConvexVolume(nil), level.ConvexVolumes...)
	level.OffMeshConnections = append([]bake.OffMeshConnection(nil), level.OffMeshConnections...)
	settings, err := parseBakeSettings(settingsJSON, &level, s.defaultSettings())
	if err != nil {
		return 0, fmt.Errorf("settings: %w", err)
	}
	if settings.MaxMemory > s.limits.maxMemory {
		return 0, fmt.Errorf("maxMemoryMB %d: the studio allows at most %d (navtool studio -max-memory-mb)", settings.MaxMemory>>20, s.limits.maxMemory>>20)
	}
	// The estimate refuses a grid too fine before a goroutine starts.
	bmin, bmax := level.Bounds()
	config, err := settings.Config(bmin, bmax)
	if err != nil {
		return 0, fmt.Errorf("settings: %w", err)
	}
	if settings.TileSize == 0 {
		if estimate := config.EstimatedMemory(); estimate > settings.MaxMemory {
			return 0, fmt.Errorf("%w: a solo bake of %d x %d cells needs about %d MiB, the limit is %d MiB",
				bake.ErrMemoryLimit, config.Width, config.Height, estimate>>20, settings.MaxMemory>>20)
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, errors.New("the studio is closing")
	}
	id := 1
	if s.job != nil {
		id = s.job.id + 1
		if s.job.state == "running" {
			s.job.cancel()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.limits.bakeTimeout)
	job := &studioBake{id: id, cancel: cancel, began: time.Now(), state: "running"}
	s.job = job
	go func() {
		defer cancel()
		progress := func(done, total int) {
			s.mu.Lock()
			job.done, job.total = done, total
			s.mu.Unlock()
		}
		err := s.bakeNow(ctx, settings, &level, progress)
		s.mu.Lock()
		job.finishedIn = time.Since(job.began)
		switch {
		case err == nil:
			job.state = "done"
		case errors.Is(err, context.Canceled):
			job.state, job.err = "cancelled", "cancelled"
		case errors.Is(err, context.DeadlineExceeded):
			job.state, job.err = "failed", fmt.Sprintf("stopped after %v (navtool studio -bake-timeout)", s.limits.bakeTimeout)
		default:
			job.state, job.err = "failed", err.Error()
		}
		s.mu.Unlock()
		s.events.publish("state", nil)
	}()
	return id, nil
}

// cancelBake stops the running bake, if any.
func (s *studio) cancelBake() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job == nil || s.job.state != "running" {
		return false
	}
	s.job.cancel()
	return true
}
