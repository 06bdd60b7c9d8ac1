package benchmarks

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

// The crate the rebuild benchmarks move: a 2 m box on the floor of
// dungeon's round room, back and forth between two places 5 m apart.
var (
	crateHalf      = geom.Vec3{1, 1, 1}
	crateAt        = [2]geom.Vec3{{38, 11.2, 0.65}, {43, 11.2, 0.65}}
	crateFootprint = func(at geom.Vec3) (geom.Vec3, geom.Vec3) { return geom.Sub(at, crateHalf), geom.Add(at, crateHalf) }
)

// BenchmarkDynamicRebuild moves one crate across dungeon's round room and
// brings the navmesh up to date, on one goroutine each, three ways in one
// run (their sub-benchmarks alternate with -count):
//
//   - dynamic: a solid box collider of bake/dynamic (tile size 32, the
//     tiles it leaves and reaches rebuilt from their voxels);
//   - tiled-bake: the same tiles baked again from the level's triangles
//     with bake's TileBaker.BuildTile, as a game without voxels would;
//   - tilecache: a carving box obstacle of the same footprint in a tile
//     cache of the level (RecastDemo's Sample_TempObstacles: tile size 48,
//     layers rebuilt), which can only cut holes.
//
// Each reports tiles/op (tiles or layers rebuilt per move) and ms/tile.
func BenchmarkDynamicRebuild(b *testing.B) {
	g := levelGeometry(b, "dungeon")
	b.Run("dynamic", func(b *testing.B) {
		m, err := dynamic.New(context.Background(), g, bake.DefaultSettings(), dynamic.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		ref, err := m.AddCollider(collider.NewBox(crateHalf), collider.Pose{Position: crateAt[0]})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Update(tilecache.Budget{}); err != nil {
			b.Fatal(err)
		}
		tiles := 0
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if err := m.MoveCollider(ref, collider.Pose{Position: crateAt[(i+1)%2]}); err != nil {
				b.Fatal(err)
			}
			if _, err := m.Update(tilecache.Budget{}); err != nil {
				b.Fatal(err)
			}
			tiles += m.LastUpdate().TilesBuilt
		}
		reportPerTile(b, tiles)
	})
	b.Run("tiled-bake", func(b *testing.B) {
		baker, err := bake.NewTileBaker(g, bake.DefaultSettings(), bake.TiledOptions{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		// The tiles a move of the crate rebuilds: those whose field (the
		// tile and its border) either footprint touches.
		var touched [][2]int
		tilesX, tilesY := baker.Grid()
		border := float32(float32(baker.BorderSize()) * bake.DefaultSettings().CellSize)
		for y := range tilesY {
			for x := range tilesX {
				tmin, tmax := baker.TileBounds(x, y)
				for _, at := range crateAt {
					cmin, cmax := crateFootprint(at)
					if cmin[0] <= tmax[0]+border && cmax[0] >= tmin[0]-border && cmin[2] <= tmax[2]+border && cmax[2] >= tmin[2]-border {
						touched = append(touched, [2]int{x, y})
						break
					}
				}
			}
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for _, t := range touched {
				if _, err := baker.BuildTile(context.Background(), t[0], t[1]); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportPerTile(b, len(touched)*b.N)
	})
	b.Run("tilecache", func(b *testing.B) {
		settings := bake.DefaultSettings()
		settings.TileSize = tileCacheTileSize
		result, err := bake.TileCache(context.Background(), g, settings, bake.TileCacheOptions{Workers: 1, Compressor: tilecache.FastLZ{}})
		if err != nil {
			b.Fatal(err)
		}
		cache, _, err := result.Cache(tilecache.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		// The obstacle reaches half a metre below the floor, as the
		// plugin's CarveDepth makes it reach.
		obstacle := func(at geom.Vec3) tilecache.Obstacle {
			bmin, bmax := crateFootprint(at)
			bmin[1] -= 0.5
			return tilecache.Box(bmin, bmax)
		}
		ref, err := cache.AddObstacle(obstacle(crateAt[0]))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cache.Update(tilecache.Budget{}); err != nil {
			b.Fatal(err)
		}
		tiles := 0
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if err := cache.MoveObstacle(ref, obstacle(crateAt[(i+1)%2])); err != nil {
				b.Fatal(err)
			}
			for {
				before := cache.Pending()
				done, err := cache.Update(tilecache.Budget{})
				if err != nil {
					b.Fatal(err)
				}
				tiles += before - cache.Pending()
				if done {
					break
				}
			}
		}
		reportPerTile(b, tiles)
	})
}

// reportPerTile reports the tiles rebuilt per op and the time per tile.
func reportPerTile(b *testing.B, tiles int) {
	b.ReportMetric(float64(tiles)/float64(b.N), "tiles/op")
	if tiles > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(tiles), "ms/tile")
	}
}
