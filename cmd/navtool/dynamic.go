package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

func init() {
	register("dynamic", "bake a dynamic navmesh, apply collider states and report the navmesh after each", runDynamic)
}

const dynamicUsage = "usage: navtool dynamic -obj LEVEL.obj [-tile-size 32] [-headroom 50] [-workers N] -colliders STATE.csv... [-o OUT.dyn] [-json]"

// dynamicOptions are the parsed flags of `navtool dynamic`.
type dynamicOptions struct {
	objPath       string
	tileSize      int
	headroom      float64
	workers       int
	colliderPaths []string
	outPath       string
	asJSON        bool
}

// colliderColumns are the columns of a collider state file, found by
// header name; all but id, type, x, y and z may be left out.
var colliderColumns = []string{"id", "type", "mode", "x", "y", "z", "hx", "hy", "hz", "radius", "halfheight", "yaw", "pitch", "roll", "area", "mesh"}

const colliderFormat = `A collider state file is CSV with a header naming its columns, in any order:
  id          the collider's name; a state keeps, moves or drops the ids of the state before
  type        box, orientedbox, sphere, capsule, cylinder, convex or trimesh
  mode        solid (default: adds ground) or carve (cuts it away)
  x, y, z     the collider's position
  hx, hy, hz  a box's half sizes
  radius      a sphere's, capsule's or cylinder's radius
  halfheight  half a capsule's or cylinder's axis, along its local y
  yaw, pitch, roll  its rotation in degrees: roll about x, then pitch about z, then yaw about y
  area        the area id of its walkable ground, 0..63 (default 63; 0: never walkable)
  mesh        for convex and trimesh: an OBJ file (relative to the state file) of its triangles in its own frame`

func parseDynamicFlags(args []string, stdout io.Writer) (*dynamicOptions, error) {
	flags := flag.NewFlagSet("dynamic", flag.ContinueOnError)
	flags.SetOutput(stdout)
	o := &dynamicOptions{}
	flags.StringVar(&o.objPath, "obj", "", "bake the dynamic navmesh of an OBJ `level` (RecastDemo's default settings, tiled)")
	flags.IntVar(&o.tileSize, "tile-size", 32, "tile side in `cells`")
	flags.Float64Var(&o.headroom, "headroom", 0, "room for colliders above the level's top in `world units` (0: bake/dynamic's default, < 0: none)")
	flags.IntVar(&o.workers, "workers", 1, "`goroutines` baking and rebuilding tiles")
	flags.Var((*stringList)(&o.colliderPaths), "colliders", "apply the collider state in CSV `file`; repeat for more states")
	flags.StringVar(&o.outPath, "o", "", "write the last state's dynamic mesh `file` (bake/dynamic's format)")
	flags.BoolVar(&o.asJSON, "json", false, "print the report as one JSON object")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), dynamicUsage)
		fmt.Fprintln(flags.Output(), "Bakes a level tiled, keeping its voxels, applies each collider state in turn (ids kept with new values move or change, ids gone are removed, new ids are added), rebuilds the tiles they touch and reports the navmesh after each.")
		fmt.Fprintln(flags.Output(), colliderFormat)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case flags.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", flags.Args())
	case o.objPath == "":
		return nil, errors.New("want -obj")
	case o.tileSize < 1:
		return nil, fmt.Errorf("tile size %d must be at least 1", o.tileSize)
	case o.workers < 1:
		return nil, fmt.Errorf("workers %d must be at least 1", o.workers)
	case math.IsNaN(o.headroom) || math.IsInf(o.headroom, 0):
		return nil, fmt.Errorf("headroom %v must be finite", o.headroom)
	}
	return o, nil
}

// colliderChanges counts what applying one collider state did.
type colliderChanges struct {
	File         string  `json:"file"`
	Colliders    int     `json:"colliders"`
	Added        int     `json:"added"`
	Changed      int     `json:"changed"`
	Removed      int     `json:"removed"`
	Refused      int     `json:"refused"`
	TilesRebuilt int     `json:"tilesRebuilt"`
	TilesEmptied int     `json:"tilesEmptied"`
	UpdateMs     float64 `json:"updateMs"`
}

// dynamicReport is what `navtool dynamic` prints; its JSON form is the
// -json output.
type dynamicReport struct {
	Input        string            `json:"input"`
	Tiles        int               `json:"tiles"`
	VoxelBytes   int64             `json:"voxelBytes"`
	Headroom     float32           `json:"headroom"`
	Workers      int               `json:"workers"`
	BakeMs       float64           `json:"bakeMs"`
	Initial      meshFigures       `json:"initial"`
	States       []meshFigures     `json:"states"`
	StateChanges []colliderChanges `json:"stateChanges"`
}

func runDynamic(args []string, stdout io.Writer) error {
	o, err := parseDynamicFlags(args, stdout)
	if err != nil {
		return err
	}
	states := make([][]colliderRow, len(o.colliderPaths))
	for i, path := range o.colliderPaths {
		if states[i], err = readColliderStateFile(path); err != nil {
			return err
		}
	}
	level, err := bake.LoadOBJ(o.objPath)
	if err != nil {
		return err
	}
	settings := bake.DefaultSettings()
	settings.TileSize = o.tileSize
	start := time.Now()
	m, err := dynamic.New(context.Background(), level, settings, dynamic.Options{Workers: o.workers, Headroom: float32(o.headroom)})
	if err != nil {
		return fmt.Errorf("%s: %w", o.objPath, err)
	}
	stats := m.Stats()
	report := &dynamicReport{Input: o.objPath, Tiles: stats.Tiles, VoxelBytes: stats.VoxelBytes, Headroom: m.Headroom(), Workers: o.workers,
		BakeMs: milliseconds(time.Since(start)), States: []meshFigures{}, StateChanges: []colliderChanges{}}
	if report.Initial, err = figures(m.NavMesh()); err != nil {
		return err
	}
	applier := &colliderApplier{mesh: m, refs: map[string]collider.Ref{}, rows: map[string]colliderRow{}}
	for i, state := range states {
		changes, err := applier.apply(state)
		if err != nil {
			return fmt.Errorf("%s: %w", o.colliderPaths[i], err)
		}
		changes.File = o.colliderPaths[i]
		report.StateChanges = append(report.StateChanges, changes)
		f, err := figures(m.NavMesh())
		if err != nil {
			return err
		}
		report.States = append(report.States, f)
	}
	if o.outPath != "" {
		f, err := os.Create(o.outPath)
		if err != nil {
			return err
		}
		if err := m.Save(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if o.asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	return printDynamicReport(stdout, report)
}

// colliderRow is one collider of a state file.
type colliderRow struct {
	id    string
	shape collider.Shape
	pose  collider.Pose
}

// readColliderStateFile reads a collider state file.
func readColliderStateFile(path string) ([]colliderRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := readColliderState(f, func(name string) (*collider.Mesh, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		g, err := bake.LoadOBJ(name)
		if err != nil {
			return nil, err
		}
		return &collider.Mesh{Vertices: g.Vertices, Triangles: g.Triangles}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// readColliderState reads the rows of a collider state (see
// colliderFormat); loadMesh gives the triangles a mesh column names, read
// once per name. Every row's shape and pose are checked.
func readColliderState(r io.Reader, loadMesh func(name string) (*collider.Mesh, error)) ([]colliderRow, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	header, err := reader.Read()
	if err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	cols := map[string]int{}
	for _, name := range colliderColumns {
		if i := slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == name }); i >= 0 {
			cols[name] = i
		}
	}
	for _, name := range []string{"id", "type", "x", "y", "z"} {
		if _, ok := cols[name]; !ok {
			return nil, fmt.Errorf("header has no %q column", name)
		}
	}
	meshes := map[string]*collider.Mesh{}
	var rows []colliderRow
	seen := map[string]bool{}
	for line := 2; ; line++ {
		record, err := reader.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		field := func(name string) string {
			if i, ok := cols[name]; ok && i < len(record) {
				return strings.TrimSpace(record[i])
			}
			return ""
		}
		number := func(name string) (float32, error) {
			text := field(name)
			if text == "" {
				return 0, nil
			}
			f, err := strconv.ParseFloat(text, 32)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return 0, fmt.Errorf("line %d: %s %q is not a finite number", line, name, text)
			}
			return float32(f), nil
		}
		var v [12]float32
		for i, name := range []string{"x", "y", "z", "hx", "hy", "hz", "radius", "halfheight", "yaw", "pitch", "roll", "area"} {
			if v[i], err = number(name); err != nil {
				return nil, err
			}
		}
		kind, err := collider.ParseKind(field("type"))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		shape := collider.Shape{Kind: kind, HalfExtents: geom.Vec3{v[3], v[4], v[5]}, Radius: v[6], HalfHeight: v[7], Area: collider.WalkableArea}
		switch mode := field("mode"); mode {
		case "", "solid":
		case "carve":
			shape.Carve = true
		default:
			return nil, fmt.Errorf("line %d: mode %q, want solid or carve", line, mode)
		}
		if field("area") != "" {
			if v[11] < 0 || v[11] > float32(collider.MaxArea) || v[11] != float32(int(v[11])) {
				return nil, fmt.Errorf("line %d: area %v, want a whole number 0..%d", line, v[11], collider.MaxArea)
			}
			shape.Area = uint8(v[11])
		}
		if kind == collider.ConvexHull || kind == collider.TriangleMesh {
			name := field("mesh")
			if name == "" {
				return nil, fmt.Errorf("line %d: a %s needs a mesh file", line, kind)
			}
			if meshes[name] == nil {
				mesh, err := loadMesh(name)
				if err != nil {
					return nil, fmt.Errorf("line %d: mesh: %w", line, err)
				}
				meshes[name] = mesh
			}
			shape.Mesh = meshes[name]
		}
		if err := shape.Validate(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		const degrees = math.Pi / 180
		rotation := geom.QuatMul(geom.QuatMul(geom.QuatRotate(v[8]*degrees, geom.Vec3{0, 1, 0}),
			geom.QuatRotate(v[9]*degrees, geom.Vec3{0, 0, 1})),
			geom.QuatRotate(v[10]*degrees, geom.Vec3{1, 0, 0}))
		pose := collider.Pose{Position: geom.Vec3{v[0], v[1], v[2]}, Rotation: rotation}
		if err := pose.Validate(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		id := field("id")
		if seen[id] {
			return nil, fmt.Errorf("line %d: id %q given twice", line, id)
		}
		seen[id] = true
		rows = append(rows, colliderRow{id: id, shape: shape, pose: pose})
	}
}

// colliderApplier moves a dynamic mesh from one collider state to the
// next.
type colliderApplier struct {
	mesh *dynamic.Mesh
	refs map[string]collider.Ref
	rows map[string]colliderRow
}

// apply makes state the mesh's collider set: rows in file order are added
// or changed, then the ids no longer there are removed (in id order), and
// the mesh is brought up to date. A collider the mesh refuses (outside
// it) is left out and counted.
func (a *colliderApplier) apply(state []colliderRow) (colliderChanges, error) {
	ch := colliderChanges{Colliders: len(state)}
	keep := map[string]bool{}
	for _, row := range state {
		keep[row.id] = true
		ref, had := a.refs[row.id]
		var err error
		switch {
		case !had:
			if ref, err = a.mesh.AddCollider(row.shape, row.pose); err == nil {
				a.refs[row.id] = ref
				ch.Added++
			}
		case !sameRow(a.rows[row.id], row):
			if err = a.mesh.SetCollider(ref, row.shape, row.pose); err == nil {
				ch.Changed++
			} else if errors.Is(err, dynamic.ErrOutsideGrid) {
				_ = a.mesh.RemoveCollider(ref)
				delete(a.refs, row.id)
			}
		}
		switch {
		case errors.Is(err, dynamic.ErrOutsideGrid):
			ch.Refused++
			delete(a.rows, row.id)
			continue
		case err != nil:
			return ch, fmt.Errorf("collider %s: %w", row.id, err)
		}
		a.rows[row.id] = row
	}
	var gone []string
	for id := range a.refs {
		if !keep[id] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		if err := a.mesh.RemoveCollider(a.refs[id]); err != nil {
			return ch, fmt.Errorf("collider %s: %w", id, err)
		}
		delete(a.refs, id)
		delete(a.rows, id)
		ch.Removed++
	}
	start := time.Now()
	for {
		done, err := a.mesh.Update(tilecache.Budget{})
		if err != nil {
			return ch, err
		}
		last := a.mesh.LastUpdate()
		ch.TilesRebuilt += last.TilesBuilt
		ch.TilesEmptied += last.TilesEmptied
		if done {
			break
		}
	}
	ch.UpdateMs = milliseconds(time.Since(start))
	return ch, nil
}

// sameRow reports whether two rows describe the same collider at the same
// pose (meshes read from the same file of two states compare equal).
func sameRow(a, b colliderRow) bool {
	if a.pose != b.pose {
		return false
	}
	ma, mb := a.shape.Mesh, b.shape.Mesh
	a.shape.Mesh, b.shape.Mesh = nil, nil
	if a.shape != b.shape || (ma == nil) != (mb == nil) {
		return false
	}
	return ma == mb || (ma != nil && slices.Equal(ma.Vertices, mb.Vertices) && slices.Equal(ma.Triangles, mb.Triangles))
}

func printDynamicReport(w io.Writer, r *dynamicReport) error {
	line := func(name string, f meshFigures) string {
		return fmt.Sprintf("%-14s %3d tiles  %4d polys  %5d verts  %5d links  %5d detail tris  %7d bytes  tile hash %s",
			name, f.Tiles, f.Polys, f.Verts, f.Links, f.DetailTris, f.Bytes, f.TileHash)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "input          %s\n", r.Input)
	fmt.Fprintf(&b, "voxels         %d tiles, %d bytes, headroom %g, %d workers, %.2f ms\n", r.Tiles, r.VoxelBytes, r.Headroom, r.Workers, r.BakeMs)
	fmt.Fprintf(&b, "%s\n", line("initial", r.Initial))
	for i, f := range r.States {
		c := r.StateChanges[i]
		fmt.Fprintf(&b, "%s (%s: %d colliders; %d added, %d changed, %d removed, %d outside; %d tiles rebuilt, %d emptied, %.2f ms)\n",
			line(fmt.Sprintf("state %d", i+1), f), c.File, c.Colliders, c.Added, c.Changed, c.Removed, c.Refused, c.TilesRebuilt, c.TilesEmptied, c.UpdateMs)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
