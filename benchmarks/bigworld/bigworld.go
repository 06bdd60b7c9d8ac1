// Package bigworld generates the large test level of the hierarchical path
// search and crowd benchmarks: a square terrain of quads over smooth sine
// hills with a little height jitter, scattered with boxes of random yaw,
// footprint and height whose walls block the ground and whose flat roofs are
// walkable islands. The same Params give the same level, vertex for vertex,
// on every machine: the generator draws from a random source of its own and
// does its arithmetic in float64 before rounding to float32 once.
//
// Default is the 1 km × 1 km level of issue 14 (2000 boxes; baked with
// Settings, tile size 64: 53 × 53 = 2809 tiles); Small is a 250 m level of
// the same kind (125 boxes, 14 × 14 tiles) quick enough for default tests.
// Bake bakes a level tiled; CachedMesh keeps the baked navmesh in a file
// under os.TempDir so that a benchmark bakes once per machine.
package bigworld

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/archenav/archenav/bake"
	"github.com/go-gl/mathgl/mgl32"
)

// Version names the generator's output: it changes whenever a change of
// this package changes the geometry some Params give, so caches keyed on
// it never serve an old level.
const Version = 1

// Limits of Params, so that a silly setting gets an error, not an
// out-of-memory crash.
const (
	// MaxSize is the largest level side [Units: world units].
	MaxSize = 10000
	// MaxTerrainQuads is the most terrain quads a level may have.
	MaxTerrainQuads = 4_000_000
	// MaxBoxes is the most boxes a level may have.
	MaxBoxes = 1_000_000
)

// Params describe one generated level. Lengths are in world units, y up;
// the terrain spans x and z from 0 to Size.
type Params struct {
	// Size is the side of the square level [Limit: > 0, <= MaxSize]
	Size float64
	// QuadSize is the side of a terrain quad [Limit: > 0; at most
	// MaxTerrainQuads quads]
	QuadSize float64
	// HillHeight is the amplitude of the sine hills [Limit: >= 0]
	HillHeight float64
	// Jitter is the most a terrain vertex moves up or down at random
	// [Limit: >= 0]
	Jitter float64
	// Boxes is the number of boxes [Limit: 0..MaxBoxes]
	Boxes int
	// MinFootprint and MaxFootprint bound each side of a box's footprint,
	// drawn uniformly between them
	// [Limit: 0 < MinFootprint <= MaxFootprint < Size/2]
	MinFootprint, MaxFootprint float64
	// MinHeight and MaxHeight bound a box's height above the highest ground
	// under it [Limit: 0 < MinHeight <= MaxHeight]
	MinHeight, MaxHeight float64
	// Seed seeds the random source: other seeds give other jitter and
	// boxes on the same hills.
	Seed uint64
}

// Default returns the 1 km level: 5 m quads, hills 6 m high, ±0.15 m
// jitter, 2000 boxes with 6–30 m footprints and 4–60 m heights, seed 1.
func Default() Params {
	return Params{
		Size:         1000,
		QuadSize:     5,
		HillHeight:   6,
		Jitter:       0.15,
		Boxes:        2000,
		MinFootprint: 6,
		MaxFootprint: 30,
		MinHeight:    4,
		MaxHeight:    60,
		Seed:         1,
	}
}

// Small returns a 250 m level of Default's kind: the same quads, hills,
// boxes per square metre (125 in all) and seed.
func Small() Params {
	p := Default()
	p.Size = 250
	p.Boxes = 125
	return p
}

// Validate reports the first field outside its limits.
func (p Params) Validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(p.Size) || p.Size <= 0 || p.Size > MaxSize:
		return fmt.Errorf("bigworld: Size %v outside (0, %d]", p.Size, MaxSize)
	case !finite(p.QuadSize) || p.QuadSize <= 0:
		return fmt.Errorf("bigworld: QuadSize %v is not a positive number", p.QuadSize)
	case math.Ceil(p.Size/p.QuadSize)*math.Ceil(p.Size/p.QuadSize) > MaxTerrainQuads:
		return fmt.Errorf("bigworld: %v m quads on a %v m level are more than %d quads", p.QuadSize, p.Size, MaxTerrainQuads)
	case !finite(p.HillHeight) || p.HillHeight < 0:
		return fmt.Errorf("bigworld: HillHeight %v is not a number >= 0", p.HillHeight)
	case !finite(p.Jitter) || p.Jitter < 0:
		return fmt.Errorf("bigworld: Jitter %v is not a number >= 0", p.Jitter)
	case p.Boxes < 0 || p.Boxes > MaxBoxes:
		return fmt.Errorf("bigworld: Boxes %d outside 0..%d", p.Boxes, MaxBoxes)
	case !finite(p.MinFootprint) || !finite(p.MaxFootprint) || p.MinFootprint <= 0 ||
		p.MaxFootprint < p.MinFootprint || p.MaxFootprint >= p.Size/2:
		return fmt.Errorf("bigworld: footprint %v..%v, want 0 < min <= max < Size/2", p.MinFootprint, p.MaxFootprint)
	case !finite(p.MinHeight) || !finite(p.MaxHeight) || p.MinHeight <= 0 || p.MaxHeight < p.MinHeight:
		return fmt.Errorf("bigworld: height %v..%v, want 0 < min <= max", p.MinHeight, p.MaxHeight)
	}
	return nil
}

// Geometry generates the level as a triangle soup for bake: the terrain
// quads first (two triangles each, row by row), then each box's roof and
// four walls. Every walkable triangle winds with its normal up.
func (p Params) Geometry() (*bake.Geometry, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	b := &builder{p: p, rng: random{state: p.Seed}}
	b.terrain()
	for range p.Boxes {
		b.box()
	}
	return &bake.Geometry{Vertices: b.vertices, Triangles: b.triangles}, nil
}

// WriteOBJ writes the level's geometry to w as a Wavefront OBJ file (v and
// f lines, 1-based indices) that bake.ReadOBJ reads back exactly.
func (p Params) WriteOBJ(w io.Writer) error {
	g, err := p.Geometry()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# archenav bigworld v%d: %+v\n", Version, p)
	var line []byte
	for _, v := range g.Vertices {
		line = append(line[:0], 'v')
		for _, c := range v {
			line = append(line, ' ')
			line = strconv.AppendFloat(line, float64(c), 'g', -1, 32)
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	for _, t := range g.Triangles {
		line = append(line[:0], 'f')
		for _, c := range t {
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(c)+1, 10)
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bigworld: write obj: %w", err)
	}
	return nil
}

// OBJ returns the level as the bytes of a Wavefront OBJ file (see WriteOBJ).
func (p Params) OBJ() ([]byte, error) {
	var buf bytes.Buffer
	if err := p.WriteOBJ(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Ground returns the height of the hills, without jitter, at (x, z).
func (p Params) Ground(x, z float64) float64 {
	const tau = 2 * math.Pi
	// Each product is rounded on its own (float64 conversions), so that no
	// platform fuses a multiply and an add and gets other bits.
	a := float64(0.5*sin(float64(tau*x)/173)) * sin(float64(tau*z)/211)
	b := 0.3 * sin(float64(tau*(float64(0.6*x)+float64(0.8*z)))/97)
	c := 0.2 * cos(float64(tau*(float64(0.8*x)-float64(0.6*z)))/61)
	return float64(p.HillHeight * (float64(a) + float64(b) + float64(c)))
}

// builder accumulates the triangles of a level.
type builder struct {
	p         Params
	rng       random
	vertices  []mgl32.Vec3
	triangles [][3]int32
}

func (b *builder) vertex(x, y, z float64) int32 {
	b.vertices = append(b.vertices, mgl32.Vec3{float32(x), float32(y), float32(z)})
	return int32(len(b.vertices) - 1)
}

// upTriangle adds triangle a, b, c wound so that its normal points up
// (Recast's walkable side).
func (b *builder) upTriangle(i, j, k int32) {
	v0, v1, v2 := b.vertices[i], b.vertices[j], b.vertices[k]
	e0, e1 := v1.Sub(v0), v2.Sub(v0)
	if float32(e0[2]*e1[0])-float32(e0[0]*e1[2]) < 0 {
		j, k = k, j
	}
	b.triangles = append(b.triangles, [3]int32{i, j, k})
}

// terrain adds the jittered height grid.
func (b *builder) terrain() {
	p := b.p
	quads := int(math.Ceil(p.Size/p.QuadSize - 1e-9))
	step := p.Size / float64(quads)
	first := int32(len(b.vertices))
	for j := 0; j <= quads; j++ {
		for i := 0; i <= quads; i++ {
			x, z := float64(i)*step, float64(j)*step
			y := p.Ground(x, z) + float64((float64(2*b.rng.float())-1)*p.Jitter)
			b.vertex(x, y, z)
		}
	}
	row := int32(quads + 1)
	for j := int32(0); j < int32(quads); j++ {
		for i := int32(0); i < int32(quads); i++ {
			v00 := first + j*row + i
			v10, v01, v11 := v00+1, v00+row, v00+row+1
			b.upTriangle(v00, v01, v10)
			b.upTriangle(v10, v01, v11)
		}
	}
}

// box adds one box: footprint sides, yaw and height drawn at random, the
// centre placed so the footprint stays on the terrain, the walls reaching
// half a metre below the lowest ground under it and the roof the box's
// height above the highest.
func (b *builder) box() {
	p := b.p
	between := func(lo, hi float64) float64 { return lo + float64(b.rng.float()*(hi-lo)) }
	sx := between(p.MinFootprint, p.MaxFootprint)
	sz := between(p.MinFootprint, p.MaxFootprint)
	yaw := between(0, math.Pi/2)
	height := between(p.MinHeight, p.MaxHeight)
	reach := float64(hypot(sx, sz) / 2)
	cx := between(reach, p.Size-reach)
	cz := between(reach, p.Size-reach)

	sinYaw, cosYaw := sin(yaw), cos(yaw)
	var corners [4][2]float64
	low, high := math.Inf(1), math.Inf(-1)
	for k, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		dx, dz := c[0]*sx/2, c[1]*sz/2
		x := cx + float64(float64(dx*cosYaw)-float64(dz*sinYaw))
		z := cz + float64(float64(dx*sinYaw)+float64(dz*cosYaw))
		corners[k] = [2]float64{x, z}
		g := p.Ground(x, z)
		low, high = math.Min(low, g), math.Max(high, g)
	}
	// The hills are smooth at the scale of a footprint: the corners and
	// the centre bound the ground under it closely enough.
	g := p.Ground(cx, cz)
	low, high = math.Min(low, g), math.Max(high, g)
	base, top := low-0.5-p.Jitter, high+height

	var bottom, roof [4]int32
	for k, c := range corners {
		bottom[k] = b.vertex(c[0], base, c[1])
		roof[k] = b.vertex(c[0], top, c[1])
	}
	b.upTriangle(roof[0], roof[1], roof[2])
	b.upTriangle(roof[0], roof[2], roof[3])
	for k := range 4 {
		next := (k + 1) % 4
		b.triangles = append(b.triangles,
			[3]int32{bottom[k], roof[k], bottom[next]},
			[3]int32{bottom[next], roof[k], roof[next]})
	}
}

// random is the generator's own random source (SplitMix64), so that the
// level never depends on the standard library's generators.
type random struct{ state uint64 }

func (r *random) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// float returns a number in [0, 1) with 53 random bits.
func (r *random) float() float64 { return float64(float64(r.next()>>11) / (1 << 53)) }

// errNoTiles is returned when a bake produced no tile at all.
var errNoTiles = errors.New("bigworld: the bake produced no tiles")
