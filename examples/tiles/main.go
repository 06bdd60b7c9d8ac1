// Command tiles rebuilds navmesh tiles while a crowd walks: a wall drops
// into a tiled field, the tiles it touches are baked again from the changed
// level and swapped in (removed, then added), and the agents walk round it;
// later the wall goes and the tiles are rebuilt once more. It runs headless
// and writes out/tiles.png.
//
//	go run ./examples/tiles [-out DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/internal/blocks"
	"github.com/archenav/archenav/examples/internal/picture"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

func main() {
	out := flag.String("out", "out", "directory for tiles.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s, world units].
const (
	dt        = 1.0 / 60
	wallAt    = 0.5 // the wall drops
	wallGone  = 9.0 // and goes again
	maxTime   = 30.0
	agentsNum = 6
	tileSize  = 32 // cells of 0.3: tiles 9.6 wide
)

// wall is the box that drops: across the field but for a gap at the top.
var wall = [6]float32{19, 0, 0, 21, 3, 15} // x0, y0, z0, x1, y1, z1

// result is what happened, for the test.
type result struct {
	agents, arrived int
	// rebuilt counts the tiles swapped, at each change.
	rebuilt [2]int
	// inWall counts agent-ticks inside the wall's footprint while it stood.
	inWall int
	// offMesh counts agent-ticks on no polygon.
	offMesh int
	// gap counts the agents that walked through the gap round the wall.
	gap int
}

// level is a 40 × 20 field, with the wall when withWall.
func level(withWall bool) *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 40, 20, 0)
	if withWall {
		l.Box(wall[0], wall[1], wall[2], wall[3], wall[4], wall[5])
	}
	return l.Geometry()
}

func settings() bake.Settings {
	s := bake.DefaultSettings()
	s.TileSize = tileSize
	return s
}

func run(out string, stdout io.Writer) (result, error) {
	baked, err := bake.Tiled(context.Background(), level(false), settings(), bake.TiledOptions{})
	if err != nil {
		return result{}, err
	}
	// Room for rebuilt tiles with more polygons than the first bake's
	// largest (NavMeshParams sizes MaxPolys for those).
	params := baked.NavMeshParams()
	params.MaxPolys = 256
	mesh, err := navmesh.New(params)
	if err != nil {
		return result{}, err
	}
	for _, tile := range baked.Tiles {
		if _, err := mesh.AddTile(tile.Data, 0); err != nil {
			return result{}, err
		}
	}

	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: agentsNum, ArrivalDistance: 0.5})
	if err != nil {
		return result{}, err
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return result{}, err
	}
	defer crowd.Schedule().Finalize(&world)
	agents := make([]ecs.Entity, agentsNum)
	for i := range agents {
		z := 2 + float32(float32(i)*2)
		if agents[i], err = crowd.Spawn(&world, geom.Vec3{3, 0, z}, components.DefaultAgentParams()); err != nil {
			return result{}, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{37, 0, z}); err != nil {
			return result{}, err
		}
	}

	r := result{agents: agentsNum}
	trails := make([][]geom.Vec3, agentsNum)
	standing := false
	var changed []*bake.TileResult
	var pic *picture.Picture // drawn while the wall stands
	for tick := 1; r.arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		now := float32(tick) * dt
		if (!standing && now >= wallAt && now < wallGone) || (standing && now >= wallGone) {
			if standing {
				if pic, err = picture.New(mesh, 640); err != nil {
					return result{}, err
				}
			}
			standing = !standing
			if changed, err = rebuild(mesh, level(standing)); err != nil {
				return result{}, err
			}
			r.rebuilt[boolIndex(!standing)] = len(changed)
		}
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			if ev.Kind == components.EventTargetReached {
				r.arrived++
			}
		}
		for i, e := range agents {
			info, err := crowd.State(&world, e)
			if err != nil {
				return result{}, err
			}
			p := info.Position
			if tick%6 == 0 {
				trails[i] = append(trails[i], p)
			}
			if standing && p[0] > wall[0] && p[0] < wall[3] && p[2] > wall[2] && p[2] < wall[5] {
				r.inWall++
			}
			if info.Mode != components.AgentWalking || info.Poly == 0 {
				r.offMesh++
			}
		}
	}
	for _, trail := range trails {
		for _, p := range trail {
			if p[0] > wall[0] && p[0] < wall[3] && p[2] >= wall[5] {
				r.gap++
				break
			}
		}
	}

	if pic == nil {
		if pic, err = picture.New(mesh, 640); err != nil {
			return result{}, err
		}
	}
	// The tiles rebuilt, and where the wall stood.
	for _, tile := range changed {
		pic.Line([]geom.Vec3{tile.BMin, {tile.BMax[0], 0, tile.BMin[2]}, tile.BMax, {tile.BMin[0], 0, tile.BMax[2]}, tile.BMin}, picture.Yellow, 3)
	}
	pic.Line([]geom.Vec3{{wall[0], 0, wall[2]}, {wall[3], 0, wall[2]}, {wall[3], 0, wall[5]}, {wall[0], 0, wall[5]}, {wall[0], 0, wall[2]}}, picture.Red, 3)
	for i := range agents {
		pic.Trail(trails[i], i)
	}
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption(fmt.Sprintf("%d tiles (yellow) rebuilt with a wall, then without", r.rebuilt[0]))
	path := filepath.Join(out, "tiles.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "wall at %.1f s: %d tiles rebuilt; gone at %.1f s: %d rebuilt; %d of %d agents arrived, %d through the gap; %d agent-ticks off the mesh\nwrote %s\n",
		wallAt, r.rebuilt[0], wallGone, r.rebuilt[1], r.arrived, agentsNum, r.gap, r.offMesh, path)
	return r, nil
}

// rebuild bakes again, from level, every tile whose bake reads the wall's
// footprint (the tile and its border), and swaps them into mesh: the old
// tile is removed and the new one added. It returns the new tiles.
func rebuild(mesh *navmesh.Mesh, level *bake.Geometry) ([]*bake.TileResult, error) {
	baker, err := bake.NewTileBaker(level, settings(), bake.TiledOptions{})
	if err != nil {
		return nil, err
	}
	s := baker.Settings()
	border := float32((geom.Ceil(s.AgentRadius/s.CellSize) + 3) * s.CellSize)
	tilesX, tilesY := baker.Grid()
	var rebuilt []*bake.TileResult
	for ty := range tilesY {
		for tx := range tilesX {
			bmin, bmax := baker.TileBounds(tx, ty)
			if bmax[0]+border < wall[0] || bmin[0]-border > wall[3] || bmax[2]+border < wall[2] || bmin[2]-border > wall[5] {
				continue
			}
			tile, err := baker.BuildTile(context.Background(), tx, ty)
			if err != nil {
				return nil, err
			}
			if old := mesh.TileRefAt(tx, ty, 0); old != 0 {
				if _, err := mesh.RemoveTile(old); err != nil {
					return nil, err
				}
			}
			if tile.Data != nil {
				if _, err := mesh.AddTile(tile.Data, 0); err != nil {
					return nil, err
				}
			}
			rebuilt = append(rebuilt, tile)
		}
	}
	return rebuilt, nil
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
