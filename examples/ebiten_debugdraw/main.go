//go:build ebiten

// Command ebiten_debugdraw shows archenav's debug drawing in an ebiten
// window: the dungeon's navmesh and a path across it, in 3D, through
// vectorDrawer, a debugdraw.Drawer built on ebiten's vector package. The
// arrow keys turn the camera, the mouse wheel zooms.
//
//	go run -tags ebiten ./examples/ebiten_debugdraw [-screenshot FILE.png]
//
// With -screenshot it saves the first frame as a PNG and exits.
//
// It needs cgo and X11 headers on Linux (see the demo's README section).
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

const width, height = 960, 720

// vectorDrawer is a debugdraw.Drawer on an ebiten image: it projects with a
// debugdraw.View and batches every primitive into triangles (lines stroked
// and dots filled by ebiten's vector package), drawn anti-aliased by Flush.
// It has no depth buffer: give it primitives far to near (see farToNear).
type vectorDrawer struct {
	view     debugdraw.View
	white    *ebiten.Image // 1×1 white source for the triangles
	vertices []ebiten.Vertex
	indices  []uint16
	target   *ebiten.Image
}

var _ debugdraw.Drawer = (*vectorDrawer)(nil)

func newVectorDrawer() *vectorDrawer {
	white := ebiten.NewImage(3, 3)
	white.Fill(color.White)
	return &vectorDrawer{white: white.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)}
}

// begin starts a frame on target seen through view.
func (d *vectorDrawer) begin(target *ebiten.Image, view debugdraw.View) {
	d.target, d.view = target, view
	d.vertices, d.indices = d.vertices[:0], d.indices[:0]
}

// paint colours the vertices from first on with c and makes room: a batch
// holds at most 65536 vertices (16-bit indices).
func (d *vectorDrawer) paint(first int, c color.NRGBA) {
	for i := first; i < len(d.vertices); i++ {
		v := &d.vertices[i]
		v.SrcX, v.SrcY = 1, 1
		v.ColorR, v.ColorG, v.ColorB, v.ColorA = float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	}
	if len(d.vertices) > math.MaxUint16-256 {
		d.Flush()
	}
}

func (d *vectorDrawer) screen(p mgl32.Vec3) (float32, float32) {
	x, y, _ := d.view.Project(p)
	return x, y
}

// Triangle fills the triangle.
func (d *vectorDrawer) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA) {
	first := len(d.vertices)
	for _, p := range [3]mgl32.Vec3{a, b, c} {
		x, y := d.screen(p)
		d.vertices = append(d.vertices, ebiten.Vertex{DstX: x, DstY: y})
	}
	d.indices = append(d.indices, uint16(first), uint16(first+1), uint16(first+2))
	d.paint(first, fill)
}

// Line strokes the segment with round caps.
func (d *vectorDrawer) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	var path vector.Path
	path.MoveTo(d.screen(a))
	path.LineTo(d.screen(b))
	first := len(d.vertices)
	d.vertices, d.indices = path.AppendVerticesAndIndicesForStroke(d.vertices, d.indices, &vector.StrokeOptions{Width: width, LineCap: vector.LineCapRound})
	d.paint(first, stroke)
}

// Point fills a disc size pixels across.
func (d *vectorDrawer) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	var path vector.Path
	x, y := d.screen(p)
	path.Arc(x, y, size/2, 0, 2*math.Pi, vector.Clockwise)
	first := len(d.vertices)
	d.vertices, d.indices = path.AppendVerticesAndIndicesForFilling(d.vertices, d.indices)
	d.paint(first, fill)
}

// Flush draws the batch.
func (d *vectorDrawer) Flush() {
	if len(d.indices) > 0 {
		d.target.DrawTriangles(d.vertices, d.indices, d.white, &ebiten.DrawTrianglesOptions{AntiAlias: true})
	}
	d.vertices, d.indices = d.vertices[:0], d.indices[:0]
}

// farToNear sorts primitives for a painter: far to near by the depth of
// each triangle's farthest corner, each line's middle and each dot, lines
// and dots brought forward by bias so that edges on a surface show.
func farToNear(primitives []debugdraw.Primitive, view debugdraw.View, bias float32) {
	depth := func(p *debugdraw.Primitive) float32 {
		switch p.Kind {
		case debugdraw.KindTriangle:
			_, _, a := view.Project(p.Vertices[0])
			_, _, b := view.Project(p.Vertices[1])
			_, _, c := view.Project(p.Vertices[2])
			return max(a, b, c)
		case debugdraw.KindLine:
			_, _, a := view.Project(p.Vertices[0])
			_, _, b := view.Project(p.Vertices[1])
			return (a+b)/2 - bias
		}
		_, _, a := view.Project(p.Vertices[0])
		return a - bias
	}
	slices.SortStableFunc(primitives, func(a, b debugdraw.Primitive) int { return cmp.Compare(depth(&b), depth(&a)) })
}

// game shows a recorded scene from a camera the keys turn.
type game struct {
	scene      debugdraw.Recorder // the navmesh and the path, in world space
	sorted     []debugdraw.Primitive
	drawer     *vectorDrawer
	bmin, bmax mgl32.Vec3
	yaw, pitch float32
	zoom       float32

	screenshot string // where to save the first frame, "" for none
	saved      error  // set once the screenshot is written (or failed)
	done       bool
}

func (g *game) Update() error {
	if g.done {
		return errors.Join(ebiten.Termination, g.saved)
	}
	switch {
	case ebiten.IsKeyPressed(ebiten.KeyLeft):
		g.yaw -= 1.5
	case ebiten.IsKeyPressed(ebiten.KeyRight):
		g.yaw += 1.5
	}
	switch {
	case ebiten.IsKeyPressed(ebiten.KeyUp):
		g.pitch = min(g.pitch+1, 90)
	case ebiten.IsKeyPressed(ebiten.KeyDown):
		g.pitch = max(g.pitch-1, 5)
	}
	if _, wheel := ebiten.Wheel(); wheel != 0 {
		g.zoom = min(max(g.zoom*float32(math.Pow(1.1, wheel)), 0.2), 20)
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.NRGBA{36, 40, 48, 255})
	fitted := debugdraw.FitView(g.yaw, g.pitch, g.bmin, g.bmax, width, height, 16)
	view := debugdraw.NewView(g.yaw, g.pitch, fitted.Scale()*g.zoom, g.bmin.Add(g.bmax).Mul(0.5), width, height)
	g.sorted = append(g.sorted[:0], g.scene.Primitives...)
	farToNear(g.sorted, view, 4/view.Scale())
	g.drawer.begin(screen, view)
	(&debugdraw.Recorder{Primitives: g.sorted}).Replay(g.drawer)
	g.drawer.Flush()
	if g.screenshot != "" && !g.done {
		g.saved, g.done = savePNG(screen, g.screenshot), true
	}
}

// savePNG writes the pixels of screen to path.
func savePNG(screen *ebiten.Image, path string) error {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (g *game) Layout(int, int) (int, int) { return width, height }

func main() {
	screenshot := flag.String("screenshot", "", "save the first frame to `FILE.png` and exit")
	flag.Parse()
	mesh, _, err := navmesh.LoadFile("testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	g := &game{drawer: newVectorDrawer(), yaw: debugdraw.IsoYaw, pitch: debugdraw.IsoPitch, zoom: 1, screenshot: *screenshot}
	snap := mesh.Snapshot()
	navdraw.Mesh(&g.scene, snap, navdraw.DefaultLayers, navdraw.DefaultStyle())
	if err := addPath(&g.scene, mesh); err != nil {
		log.Fatal(err)
	}
	var ok bool
	if g.bmin, g.bmax, ok = g.scene.Bounds(); !ok {
		log.Fatal("nothing to draw")
	}
	ebiten.SetWindowTitle("archenav debug drawing")
	ebiten.SetWindowSize(width, height)
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		log.Fatal(err)
	}
	if g.saved != nil {
		log.Fatal(g.saved)
	}
}

// addPath draws a path between two points of the dungeon, with the nodes
// its search visited.
func addPath(d debugdraw.Drawer, mesh *navmesh.Mesh) error {
	q, err := query.New(mesh, 2048)
	if err != nil {
		return err
	}
	filter := query.NewFilter()
	from, to := mgl32.Vec3{-9.17, 10.2, -20.3}, mgl32.Vec3{23.7, 15.1, -73.6}
	extents := mgl32.Vec3{2, 4, 2}
	start, err := q.FindNearestPoly(from, extents, filter)
	if err != nil {
		return err
	}
	end, err := q.FindNearestPoly(to, extents, filter)
	if err != nil {
		return err
	}
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	if err != nil {
		return err
	}
	points := make([]query.StraightPathPoint, 64)
	ns, _, err := q.FindStraightPath(start.Point, end.Point, path[:n], points, 0)
	if err != nil {
		return fmt.Errorf("straight path: %w", err)
	}
	style := navdraw.DefaultStyle()
	style.Path = color.NRGBA{255, 200, 40, 255}
	navdraw.Search(d, mesh.Snapshot(), q.SearchNodes(nil), style)
	navdraw.StraightPath(d, points[:ns], style)
	return nil
}
