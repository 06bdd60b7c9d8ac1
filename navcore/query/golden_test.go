package query

import (
	"bufio"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// The files in testdata/golden hold what Detour 1.6.0 (32-bit refs, g++ -O2)
// answered on navmesh_solo_dungeon.bin for seeded inputs; see
// testdata/golden/README.md. Polygons are written as their index in the tile
// (-1 for none), statuses as the success flag and the detail bits, floats
// with 9 significant digits, which round-trip float32 exactly: the tests
// below compare bit for bit.

// goldenLines returns the whitespace-separated fields of every line of a
// golden file.
func goldenLines(tb testing.TB, dir, name string) []*fields {
	tb.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	require.NoError(tb, err)
	defer f.Close()
	var lines []*fields
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		lines = append(lines, &fields{tb: tb, tokens: strings.Fields(scanner.Text())})
	}
	require.NoError(tb, scanner.Err())
	return lines
}

// fields reads one golden line token by token.
type fields struct {
	tb     testing.TB
	tokens []string
	next   int
}

func (f *fields) str() string {
	f.tb.Helper()
	require.Less(f.tb, f.next, len(f.tokens), "line %v too short", f.tokens)
	s := f.tokens[f.next]
	f.next++
	return s
}

func (f *fields) int() int {
	f.tb.Helper()
	v, err := strconv.Atoi(f.str())
	require.NoError(f.tb, err)
	return v
}

func (f *fields) f32() float32 {
	f.tb.Helper()
	v, err := strconv.ParseFloat(f.str(), 32)
	require.NoError(f.tb, err)
	return float32(v)
}

func (f *fields) vec() geom.Vec3 { return geom.Vec3{f.f32(), f.f32(), f.f32()} }

// goldenWorld is a mesh the golden files were made on, its filter, a Query
// and the random points every golden file starts from.
type goldenWorld struct {
	name   string
	dir    string
	mesh   *navmesh.Mesh
	q      *Query
	filter *Filter
	points []geom.Vec3
	refs   []navmesh.Ref
}

// goldenWorlds returns the solo dungeon tile with the reference filter, and
// the dungeon baked in 41 tiles with 10 off-mesh links, road polygons (area
// 2, cost 3), disabled polygons (flag 0x10) and links of area 5 (cost 1.5).
func goldenWorlds(t *testing.T) []*goldenWorld {
	t.Helper()
	solo := &goldenWorld{name: "solo", dir: filepath.Join("testdata", "golden"), mesh: testmesh.Dungeon(t), filter: referenceFilter()}
	tiledFilter := referenceFilter()
	tiledFilter.AreaCost[2] = 3
	tiledFilter.AreaCost[5] = 1.5
	tiled := &goldenWorld{name: "tiled", dir: filepath.Join("testdata", "golden", "tiled"), filter: tiledFilter}
	tiled.mesh = loadTiles(t, filepath.Join(tiled.dir, "tiles.bin"))
	for _, w := range []*goldenWorld{solo, tiled} {
		q, err := New(w.mesh, 2048)
		require.NoError(t, err)
		w.q = q
		for _, line := range goldenLines(t, w.dir, "random_point.txt") {
			require.Equal(t, 1, line.int())
			w.refs = append(w.refs, w.ref(line.int()))
			w.points = append(w.points, line.vec())
		}
	}
	return []*goldenWorld{solo, tiled}
}

// loadTiles reads a tile set written by the golden generator: the C++
// dtNavMeshParams, then per tile its size and DNAV blob, in the order they
// were added.
func loadTiles(t *testing.T, path string) *navmesh.Mesh {
	t.Helper()
	blob, err := os.ReadFile(path)
	require.NoError(t, err)
	f32 := func(off int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(blob[off:])) }
	i32 := func(off int) int { return int(int32(binary.LittleEndian.Uint32(blob[off:]))) }
	mesh, err := navmesh.New(navmesh.Params{
		Origin:     geom.Vec3{f32(0), f32(4), f32(8)},
		TileWidth:  f32(12),
		TileHeight: f32(16),
		MaxTiles:   i32(20),
		MaxPolys:   i32(24),
	})
	require.NoError(t, err)
	for off := 28; off < len(blob); {
		size := i32(off)
		data, err := navmesh.ReadDNAV(blob[off+4 : off+4+size])
		require.NoError(t, err)
		_, err = mesh.AddTile(data, 0)
		require.NoError(t, err)
		off += 4 + size
	}
	return mesh
}

// ref turns a golden polygon id (tile*1000 + polygon, -1 for none) into a
// Ref.
func (w *goldenWorld) ref(id int) navmesh.Ref {
	if id < 0 {
		return 0
	}
	tile := w.mesh.Snapshot().Tile(id / 1000)
	if tile == nil {
		return navmesh.EncodeRef(0, uint32(id/1000), uint32(id%1000))
	}
	return tile.PolyRefBase() | navmesh.Ref(id%1000)
}

// index turns a Ref into its golden polygon id.
func index(ref navmesh.Ref) int {
	if ref == 0 {
		return -1
	}
	return int(ref.TileIndex())*1000 + int(ref.PolyIndex())
}

// detailBits converts a Status to Detour's detail bits.
func detailBits(s Status) int {
	bits := 0
	if s&StatusBufferTooSmall != 0 {
		bits |= 16
	}
	if s&StatusOutOfNodes != 0 {
		bits |= 32
	}
	if s&StatusPartial != 0 {
		bits |= 64
	}
	return bits
}

// sameFloat asserts bit equality (NaNs equal each other).
func sameFloat(t *testing.T, want, got float32, msgAndArgs ...any) bool {
	t.Helper()
	if math.Float32bits(want) == math.Float32bits(got) || (want != want && got != got) {
		return true
	}
	return assert.Fail(t, "float differs", "want %.9g got %.9g %v", want, got, msgAndArgs)
}

func sameVec(t *testing.T, want, got geom.Vec3, msgAndArgs ...any) bool {
	t.Helper()
	return sameFloat(t, want[0], got[0], msgAndArgs...) &&
		sameFloat(t, want[1], got[1], msgAndArgs...) &&
		sameFloat(t, want[2], got[2], msgAndArgs...)
}

// sameRefs asserts that got names the golden polygon indices that follow in
// line (count of them).
func sameRefs(t *testing.T, line *fields, count int, got []navmesh.Ref, msgAndArgs ...any) bool {
	t.Helper()
	want := make([]int, count)
	for i := range want {
		want[i] = line.int()
	}
	gotIdx := make([]int, len(got))
	for i, r := range got {
		gotIdx[i] = index(r)
	}
	return assert.Equal(t, want, gotIdx, msgAndArgs...)
}

func TestGoldenRandomPoint(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			rng := &testmesh.LCG{State: 777}
			for i, line := range goldenLines(t, w.dir, "random_point.txt") {
				require.Equal(t, 1, line.int())
				p, err := w.q.FindRandomPoint(w.filter, rng.Next)
				require.NoError(t, err)
				assert.Equal(t, line.int(), index(p.Ref), "point %d", i)
				sameVec(t, line.vec(), p.Pos, "point", i)
			}
		})
	}
}

func TestGoldenRaycast(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			path := make([]navmesh.Ref, 32)
			for i, line := range goldenLines(t, w.dir, "raycast.txt") {
				pair := i / 2
				variant := line.int()
				buf := path
				if variant == 1 {
					buf = path[:3]
				}
				hit, status, err := w.q.Raycast(w.refs[pair*2], w.points[pair*2], w.points[pair*2+1], w.filter, RaycastUseCosts, 0, buf)
				require.Equal(t, 1, line.int())
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "ray %d status", i)
				sameFloat(t, line.f32(), hit.T, "ray", i, "t")
				sameVec(t, line.vec(), hit.HitNormal, "ray", i, "normal")
				assert.Equal(t, line.int(), hit.HitEdgeIndex, "ray %d edge", i)
				count := line.int()
				sameFloat(t, line.f32(), hit.PathCost, "ray", i, "cost")
				sameRefs(t, line, count, buf[:hit.PathCount], "ray %d path", i)
			}
		})
	}
}

func TestGoldenMoveAlongSurface(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			visited := make([]navmesh.Ref, 16)
			for i, line := range goldenLines(t, w.dir, "move_along_surface.txt") {
				require.Equal(t, 1, line.int())
				bits := line.int()
				end := line.vec()
				pos, n, status, err := w.q.MoveAlongSurface(w.refs[i*2], w.points[i*2], end, w.filter, visited)
				require.NoError(t, err)
				assert.Equal(t, bits, detailBits(status), "move %d status", i)
				sameVec(t, line.vec(), pos, "move", i)
				sameRefs(t, line, line.int(), visited[:n], "move %d visited", i)
			}
		})
	}
}

func TestGoldenDistanceToWall(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			for i, line := range goldenLines(t, w.dir, "distance_to_wall.txt") {
				require.Equal(t, 1, line.int())
				hit, status, err := w.q.FindDistanceToWall(w.refs[i*2], w.points[i*2], 6, w.filter)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "wall %d status", i)
				sameFloat(t, line.f32(), hit.Distance, "wall", i)
				pos, normal := line.vec(), line.vec()
				if hit.Distance < 6 {
					sameVec(t, pos, hit.Pos, "wall", i, "pos")
					sameVec(t, normal, hit.Normal, "wall", i, "normal")
				}
			}
		})
	}
}

func TestGoldenAround(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			refs := make([]navmesh.Ref, 24)
			parents := make([]navmesh.Ref, 24)
			costs := make([]float32, 24)
			path := make([]navmesh.Ref, 16)
			lines := goldenLines(t, w.dir, "around.txt")
			for i := 0; i < len(lines); i += 4 {
				pair := i / 4
				start, center := w.refs[pair*2], w.points[pair*2]

				line := lines[i]
				require.Equal(t, "circle", line.str())
				n, status, err := w.q.FindPolysAroundCircle(start, center, 5, w.filter, refs, parents, costs)
				require.NoError(t, err)
				checkReached(t, line, n, status, refs, parents, costs, "circle", pair)

				line = lines[i+1]
				require.Equal(t, "dijkstra", line.str())
				require.Equal(t, 1, line.int())
				pn, pstatus, err := w.q.PathFromDijkstraSearch(refs[n-1], path)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(pstatus), "dijkstra %d status", pair)
				sameRefs(t, line, line.int(), path[:pn], "dijkstra %d", pair)

				line = lines[i+2]
				require.Equal(t, "shape", line.str())
				c := center
				shape := []geom.Vec3{{c[0] - 3, c[1], c[2] - 1}, {c[0] - 1, c[1], c[2] + 2}, {c[0] + 3, c[1], c[2] + 1}, {c[0] + 1, c[1], c[2] - 2}}
				n, status, err = w.q.FindPolysAroundShape(start, shape, w.filter, refs, parents, costs)
				require.NoError(t, err)
				checkReached(t, line, n, status, refs, parents, costs, "shape", pair)

				line = lines[i+3]
				require.Equal(t, "local", line.str())
				n, status, err = w.q.FindLocalNeighbourhood(start, center, 4, w.filter, refs, parents)
				require.NoError(t, err)
				require.Equal(t, 1, line.int())
				assert.Equal(t, line.int(), detailBits(status), "local %d status", pair)
				require.Equal(t, line.int(), n, "local %d count", pair)
				for k := 0; k < n; k++ {
					assert.Equal(t, line.int(), index(refs[k]), "local %d ref %d", pair, k)
					assert.Equal(t, line.int(), index(parents[k]), "local %d parent %d", pair, k)
				}
			}
		})
	}
}

func checkReached(t *testing.T, line *fields, n int, status Status, refs, parents []navmesh.Ref, costs []float32, what string, pair int) {
	t.Helper()
	require.Equal(t, 1, line.int())
	assert.Equal(t, line.int(), detailBits(status), "%s %d status", what, pair)
	require.Equal(t, line.int(), n, "%s %d count", what, pair)
	for k := 0; k < n; k++ {
		assert.Equal(t, line.int(), index(refs[k]), "%s %d ref %d", what, pair, k)
		assert.Equal(t, line.int(), index(parents[k]), "%s %d parent %d", what, pair, k)
		sameFloat(t, line.f32(), costs[k], what, pair, "cost", k)
	}
}

func TestGoldenWallSegments(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			segments := make([]WallSegment, 32)
			for _, line := range goldenLines(t, w.dir, "wall_segments.txt") {
				poly := line.int()
				withPortals := line.int() == 1
				require.Equal(t, 1, line.int())
				n, status, err := w.q.PolyWallSegments(w.ref(poly), w.filter, withPortals, segments)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "poly %d status", poly)
				require.Equal(t, line.int(), n, "poly %d portals %v count", poly, withPortals)
				for k := 0; k < n; k++ {
					sameVec(t, line.vec(), segments[k].Start, "poly", poly, "segment", k)
					sameVec(t, line.vec(), segments[k].End, "poly", poly, "segment", k)
					assert.Equal(t, line.int(), index(segments[k].Neighbour), "poly %d segment %d", poly, k)
				}
			}
		})
	}
}

func TestGoldenRandomPointAroundCircle(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			rng := &testmesh.LCG{State: 99}
			for i, line := range goldenLines(t, w.dir, "random_around_circle.txt") {
				require.Equal(t, 1, line.int())
				p, status, err := w.q.FindRandomPointAroundCircle(w.refs[i*2], w.points[i*2], 4, w.filter, rng.Next)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "point %d status", i)
				assert.Equal(t, line.int(), index(p.Ref), "point %d ref", i)
				sameVec(t, line.vec(), p.Pos, "point", i)
			}
		})
	}
}

func TestGoldenPaths(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			small, err := New(w.mesh, 24)
			require.NoError(t, err)
			path := make([]navmesh.Ref, 64)
			points := make([]StraightPathPoint, 48)
			lines := goldenLines(t, w.dir, "paths.txt")
			const linesPerPair = 10
			for i := 0; i < len(lines); i += linesPerPair {
				pair := i / linesPerPair
				sr, er := w.refs[pair*2], w.refs[pair*2+1]
				s, e := w.points[pair*2], w.points[pair*2+1]

				line := lines[i]
				require.Equal(t, "plain", line.str())
				require.Equal(t, 1, line.int())
				n, status, err := w.q.FindPath(sr, er, s, e, w.filter, path)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "pair %d status", pair)
				sameRefs(t, line, line.int(), path[:n], "pair %d path", pair)
				corridor := append([]navmesh.Ref(nil), path[:n]...)

				for opt := 0; opt < 4; opt++ {
					line = lines[i+1+opt]
					require.Equal(t, "straight", line.str())
					require.Equal(t, opt, line.int())
					require.Equal(t, 1, line.int())
					options, buf := StraightPathOptions(opt), points
					if opt == 3 {
						options, buf = 0, points[:4]
					}
					sn, sstatus, err := w.q.FindStraightPath(s, e, corridor, buf, options)
					require.NoError(t, err)
					checkStraight(t, w, line, sn, sstatus, buf, "straight", pair, opt)
				}

				line = lines[i+5]
				require.Equal(t, "broken", line.str())
				if len(corridor) >= 4 {
					broken := []navmesh.Ref{corridor[0], corridor[1], corridor[3], corridor[2]}
					require.Equal(t, 1, line.int())
					sn, sstatus, err := w.q.FindStraightPath(s, e, broken, points[:16], StraightPathAllCrossings)
					require.NoError(t, err)
					checkStraight(t, w, line, sn, sstatus, points[:16], "broken", pair, 0)
				}

				for anyAngle := 0; anyAngle < 2; anyAngle++ {
					line = lines[i+6+anyAngle]
					require.Equal(t, "sliced", line.str())
					require.Equal(t, anyAngle, line.int())
					options := FindPathOptions(0)
					if anyAngle == 1 {
						options = FindPathAnyAngle
					}
					st, err := w.q.InitSlicedFindPath(sr, er, s, e, w.filter, options)
					require.NoError(t, err)
					updates, total := 0, 0
					for st.InProgress() {
						var done int
						done, st, err = w.q.UpdateSlicedFindPath(7)
						require.NoError(t, err)
						total += done
						updates++
					}
					require.Equal(t, 1, line.int())
					assert.Equal(t, line.int(), detailBits(st), "pair %d sliced %d update status", pair, anyAngle)
					assert.Equal(t, line.int(), updates, "pair %d sliced %d updates", pair, anyAngle)
					assert.Equal(t, line.int(), total, "pair %d sliced %d iterations", pair, anyAngle)
					sn, fstatus, err := w.q.FinalizeSlicedFindPath(path)
					require.NoError(t, err)
					require.Equal(t, 1, line.int())
					assert.Equal(t, line.int(), detailBits(fstatus), "pair %d sliced %d status", pair, anyAngle)
					sameRefs(t, line, line.int(), path[:sn], "pair %d sliced %d path", pair, anyAngle)
				}

				line = lines[i+8]
				require.Equal(t, "partialfinal", line.str())
				st, err := w.q.InitSlicedFindPath(sr, er, s, e, w.filter, 0)
				require.NoError(t, err)
				if st.InProgress() {
					_, _, err = w.q.UpdateSlicedFindPath(3)
					require.NoError(t, err)
				}
				sn, fstatus, err := w.q.FinalizeSlicedFindPathPartial(corridor, path)
				require.NoError(t, err)
				require.Equal(t, 1, line.int())
				assert.Equal(t, line.int(), detailBits(fstatus), "pair %d partial final status", pair)
				sameRefs(t, line, line.int(), path[:sn], "pair %d partial final path", pair)

				line = lines[i+9]
				require.Equal(t, "small", line.str())
				require.Equal(t, 1, line.int())
				n, status, err = small.FindPath(sr, er, s, e, w.filter, path[:8])
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "pair %d small pool status", pair)
				sameRefs(t, line, line.int(), path[:n], "pair %d small pool path", pair)
			}
		})
	}
}

func checkStraight(t *testing.T, w *goldenWorld, line *fields, n int, status Status, points []StraightPathPoint, what string, pair, opt int) {
	t.Helper()
	assert.Equal(t, line.int(), detailBits(status), "pair %d %s %d status", pair, what, opt)
	require.Equal(t, line.int(), n, "pair %d %s %d count", pair, what, opt)
	for k := 0; k < n; k++ {
		sameVec(t, line.vec(), points[k].Pos, "pair", pair, what, opt, "point", k)
		assert.Equal(t, line.int(), int(points[k].Flags), "pair %d %s %d flags %d", pair, what, opt, k)
		assert.Equal(t, line.int(), index(points[k].Ref), "pair %d %s %d ref %d", pair, what, opt, k)
	}
}

func TestGoldenClosest(t *testing.T) {
	for _, w := range goldenWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			polys := make([]navmesh.Ref, 8)
			for i, line := range goldenLines(t, w.dir, "closest.txt") {
				ref := w.refs[i*2]
				require.Equal(t, 1, line.int())
				p := line.vec()
				closest, over, err := w.q.ClosestPointOnPoly(ref, p)
				require.NoError(t, err)
				sameVec(t, line.vec(), closest, "closest", i)
				assert.Equal(t, line.int() == 1, over, "closest %d over", i)

				require.Equal(t, 1, line.int())
				boundary, err := w.q.ClosestPointOnPolyBoundary(ref, p)
				require.NoError(t, err)
				sameVec(t, line.vec(), boundary, "boundary", i)

				heightOK := line.int() == 1
				wantHeight := line.f32()
				h, err := w.q.PolyHeight(ref, p)
				if heightOK {
					require.NoError(t, err)
					sameFloat(t, wantHeight, h, "height", i)
				} else {
					assert.ErrorIs(t, err, ErrInvalidParam, "height %d", i)
				}

				require.Equal(t, 1, line.int())
				nearest, err := w.q.FindNearestPoly(p, testmesh.DungeonHalfExtents, w.filter)
				require.NoError(t, err)
				assert.Equal(t, line.int(), index(nearest.Ref), "nearest %d", i)
				sameVec(t, line.vec(), nearest.Point, "nearest", i)
				assert.Equal(t, line.int() == 1, nearest.OverPoly, "nearest %d over", i)

				require.Equal(t, 1, line.int())
				n, status, err := w.q.QueryPolygons(p, geom.Vec3{3, 2, 3}, w.filter, polys)
				require.NoError(t, err)
				assert.Equal(t, line.int(), detailBits(status), "query polygons %d status", i)
				sameRefs(t, line, line.int(), polys[:n], "query polygons %d", i)
			}
		})
	}
}
