package bake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
)

// AgentType is one kind of agent a level is baked for, as Unity's agent
// types or Godot's navigation maps per agent size: soldiers, ogres, carts.
// A navigation mesh is baked for one agent size (eroded by its radius,
// filtered by its height, climb and slope), so each type gets a mesh of its
// own from the same level.
type AgentType struct {
	// Name identifies the type and its mesh (navmesh.MeshSet): 1..255
	// bytes of UTF-8 without control characters, unique among the types
	// of a bake (a bake of one type may leave it empty)
	// [Limit: navmesh.ValidateMeshNames]
	Name string
	// Settings are the settings the type's mesh is baked with: usually the
	// level's settings with the type's AgentRadius, AgentHeight,
	// AgentMaxClimb and AgentMaxSlope, but any setting may differ.
	Settings Settings
}

// TypesStats tell what a bake of several agent types shared.
type TypesStats struct {
	// Bakes counts the types' bakes that got to rasterization: one per type
	// in a solo bake, one per type and tile with geometry in a tiled or
	// tile cache bake. Baked apart, each would rasterize, filter and
	// compact a heightfield.
	Bakes int
	// Rasterizations counts the heightfields rasterized; the other bakes
	// copied the field of a type that shares it (the same grid, cell size,
	// slope and climb).
	Rasterizations int
	// Compactions counts the runs of the span filters, the compact field
	// and the erosion's boundary distances; the other bakes copied those of
	// a type that shares them (the same rasterization, height and filters).
	Compactions int
	// Workers is the number of goroutines that baked.
	Workers int
	// Wall is the time the bake took.
	Wall time.Duration
}

// SoloTypesOptions tune SoloTypes.
type SoloTypesOptions struct {
	// Workers is the number of types baked at once, each on a goroutine of
	// its own; 0 or less means runtime.GOMAXPROCS(0). The result does not
	// depend on it.
	Workers int
	// Progress, when set, is called after each type's bake with the number
	// of types done so far and the total, one call at a time from the
	// goroutine that called SoloTypes; calls stop once the bake is
	// cancelled or a type failed.
	Progress func(done, total int)
	// Options apply to every type's bake (WithAreaFlags,
	// WithIntermediates).
	Options []SoloOption
}

// SoloTypesResult holds the solo bakes of several agent types.
type SoloTypesResult struct {
	// Types are the types baked, in the order given.
	Types []AgentType
	// Results holds each type's bake, Results[i] that of Types[i]: what
	// Solo with Types[i].Settings gives, byte for byte.
	Results []*SoloResult
	// Stats tell what the bakes shared.
	Stats TypesStats
}

// SoloTypes bakes the level as one tile for each agent type, as Solo does
// with each type's settings, and gives the same products byte for byte.
// Types whose settings allow it share work: types with the same cell size
// and height, slope and climb rasterize the level once; those with the same
// height and filters too share the span filters, the compact heightfield and
// the erosion's distances (see TypesStats); from the erosion by each type's
// radius on, every type bakes its own. The types bake on opts.Workers
// goroutines, a type starting once the work it shares with an earlier type
// is done; the result does not depend on the number of workers.
//
// The names and settings of every type are checked before anything is
// baked. Cancelling ctx stops the bakes between two stages and returns
// ctx's error; a failing type stops the others and its error is returned
// (the first in type order when several fail), naming the type.
func SoloTypes(ctx context.Context, g *Geometry, types []AgentType, opts SoloTypesOptions) (*SoloTypesResult, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := validateTypes(types); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	unique, _ := g.WithoutRepeatedTriangles() // for the estimates: each Solo leaves them out again
	configs := make([]*Config, len(types))
	for i := range types {
		bmin, bmax, err := levelBounds(g, types[i].Settings.CellSize)
		if err != nil {
			return nil, typeError(types[i], err)
		}
		if configs[i], err = types[i].Settings.Config(bmin, bmax); err != nil {
			return nil, typeError(types[i], err)
		}
	}
	workers := tileWorkers(opts.Workers, len(types))
	for i := range types {
		// As many bakes as workers run at once.
		if err := types[i].Settings.checkMemory("solo", configs[i], workers); err != nil {
			return nil, typeError(types[i], err)
		}
		work := configs[i].EstimatedWork(unique)
		work.Triangles = int64(len(g.Triangles))
		if err := types[i].Settings.checkWork("solo", work); err != nil {
			return nil, typeError(types[i], err)
		}
	}
	shares := planSharing(configs).shares(allTypes(len(types)))
	defer releaseRecords(shares)

	result := &SoloTypesResult{Types: slices.Clone(types), Results: make([]*SoloResult, len(types))}
	done := 0
	err := runJobs(ctx, workers, len(types), func(ctx context.Context, _, i int) error {
		defer shares[i].abandon()
		b := soloBakers.Get().(*Baker)
		b.share = shares[i]
		solo, err := b.Solo(ctx, g, types[i].Settings, opts.Options...)
		b.share = nil
		soloBakers.Put(b)
		if err != nil {
			return typeError(types[i], err)
		}
		result.Results[i] = solo
		return nil
	}, func(int) {
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(types))
		}
	})
	if err != nil {
		return nil, err
	}
	stats := &result.Stats
	sumCounts(stats, shares)
	stats.Workers = workers
	stats.Wall = time.Since(start)
	return result, nil
}

// MeshSet returns a navigation mesh per type, each holding its type's tile
// (SoloResult.NavMesh), under the type's name, for navmesh.SaveSet and the
// crowd.
func (r *SoloTypesResult) MeshSet() (navmesh.MeshSet, error) {
	set := make(navmesh.MeshSet, len(r.Results))
	for i, solo := range r.Results {
		m, err := solo.NavMesh()
		if err != nil {
			return nil, typeError(r.Types[i], err)
		}
		set[i] = navmesh.NamedMesh{Name: r.Types[i].Name, Mesh: m}
	}
	return set, nil
}

// validateTypes checks that there are types and that their names can name
// the meshes of a navmesh.MeshSet.
func validateTypes(types []AgentType) error {
	names := make([]string, len(types))
	for i := range types {
		names[i] = types[i].Name
	}
	if err := navmesh.ValidateMeshNames(names); err != nil {
		return fmt.Errorf("bake: agent types: %w", err)
	}
	return nil
}

// typeError names the type in err.
func typeError(t AgentType, err error) error {
	return fmt.Errorf("bake: agent type %q: %w", t.Name, err)
}

// allTypes returns 0..n-1.
func allTypes(n int) []int {
	types := make([]int, n)
	for i := range types {
		types[i] = i
	}
	return types
}

// runJobs runs bake(ctx, worker, job) for jobs 0..n-1 on workers
// goroutines (worker 0..workers-1), which take the jobs in order, each the
// next one when it becomes free, so that a job only waits for work of
// earlier jobs, which are running or done. It calls collect(job) from this
// goroutine after each job that succeeded, until the bake is stopped. A
// failing job cancels the others; the first error in job order is
// returned, preferring a real failure over a job stopped by another's, and
// ctx's once it is done.
func runJobs(ctx context.Context, workers, n int, bake func(ctx context.Context, worker, job int) error, collect func(job int)) error {
	workCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	finished := make(chan int, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for worker := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				job := int(next.Add(1) - 1)
				if job >= n || workCtx.Err() != nil {
					return
				}
				if err := bake(workCtx, worker, job); err != nil {
					errs[job] = err
					cancel()
				}
				finished <- job
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	for job := range finished {
		if errs[job] == nil && workCtx.Err() == nil {
			collect(job)
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bake: agent types: %w", err)
	}
	return firstFailure(errs)
}

// firstFailure returns the first error in order, preferring one that is not
// a consequence of another (a stop by cancellation, a shared stage that
// failed elsewhere).
func firstFailure(errs []error) error {
	var stopped error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled) || errors.Is(err, errSharedStage):
			if stopped == nil {
				stopped = err
			}
		default:
			return err
		}
	}
	return stopped
}
