package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

func init() {
	register("info", "print the format, parameters, tiles and counts of a navmesh file", runInfo)
}

// infoReport is what `navtool info` prints; its JSON form is the -json
// output (keys documented in docs/navtool.md).
type infoReport struct {
	File               string     `json:"file"`
	Format             string     `json:"format"`
	Params             infoParams `json:"params"`
	Tiles              int        `json:"tiles"`
	Polys              int        `json:"polys"`
	Verts              int        `json:"verts"`
	Links              int        `json:"links"`
	MaxLinks           int        `json:"maxLinks"`
	DetailVerts        int        `json:"detailVerts"`
	DetailTris         int        `json:"detailTris"`
	OffMeshConnections int        `json:"offMeshConnections"`
	BVNodes            int        `json:"bvNodes"`
	// RuntimeLinks counts the runtime links saved with the mesh; their
	// tiles are not among the tiles.
	RuntimeLinks int         `json:"runtimeLinks,omitempty"`
	Bounds       *infoBounds `json:"bounds"`
	PerTile      []infoTile  `json:"perTile"`
}

type infoParams struct {
	Origin     [3]jsonFloat `json:"origin"`
	TileWidth  jsonFloat    `json:"tileWidth"`
	TileHeight jsonFloat    `json:"tileHeight"`
	MaxTiles   int          `json:"maxTiles"`
	MaxPolys   int          `json:"maxPolys"`
}

type infoBounds struct {
	Min [3]jsonFloat `json:"min"`
	Max [3]jsonFloat `json:"max"`
}

type infoTile struct {
	X                  int32      `json:"x"`
	Y                  int32      `json:"y"`
	Layer              int32      `json:"layer"`
	Slot               int        `json:"slot"`
	Salt               uint32     `json:"salt"`
	Ref                string     `json:"ref"`
	Polys              int        `json:"polys"`
	Verts              int        `json:"verts"`
	Links              int        `json:"links"`
	MaxLinks           int        `json:"maxLinks"`
	DetailVerts        int        `json:"detailVerts"`
	DetailTris         int        `json:"detailTris"`
	OffMeshConnections int        `json:"offMeshConnections"`
	BVNodes            int        `json:"bvNodes"`
	Bounds             infoBounds `json:"bounds"`
}

// jsonFloat prints a float32 in its shortest exact form (-25.015217, not
// -25.015216827392578).
type jsonFloat float32

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(f), 'g', -1, 32), nil
}

func vec(v mgl32.Vec3) [3]jsonFloat {
	return [3]jsonFloat{jsonFloat(v[0]), jsonFloat(v[1]), jsonFloat(v[2])}
}

func runInfo(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("info", flag.ContinueOnError)
	flags.SetOutput(stdout)
	asJSON := flags.Bool("json", false, "print the report as JSON")
	typeName := flags.String("type", "", "report only the mesh of agent type `NAME` of a file of several (navtool bake -agent-types)")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: navtool info [-json] [-type NAME] FILE")
		fmt.Fprintln(flags.Output(), "Reads a DNAV tile, a RecastDemo MSET tile set or an archenav mesh file and prints its contents;")
		fmt.Fprintln(flags.Output(), "for an archenav file of several agent types' meshes, the types and each one's contents.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return errors.New("want exactly one FILE")
	}
	path := flags.Arg(0)
	set, format, err := navmesh.LoadSetFile(path)
	if err != nil {
		return err
	}
	var report any
	switch {
	case *typeName != "":
		mesh := set.Find(*typeName)
		if mesh == nil {
			return fmt.Errorf("%s has no mesh of agent type %q (it has %s)", path, *typeName, typeList(set.Names()))
		}
		report = buildInfoReport(path, format, mesh)
	case len(set) == 1 && set[0].Name == "":
		report = buildInfoReport(path, format, set[0].Mesh)
	default:
		report = buildInfoSetReport(path, format, set)
	}
	if *asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	switch r := report.(type) {
	case *infoSetReport:
		return printInfoSet(stdout, r)
	default:
		return printInfo(stdout, r.(*infoReport))
	}
}

// infoSetReport is what `navtool info` prints for a file of several agent
// types' meshes (navmesh.SaveSet): the types, then each mesh's report
// under its name.
type infoSetReport struct {
	File   string      `json:"file"`
	Format string      `json:"format"`
	Types  []string    `json:"types"`
	Meshes []namedInfo `json:"meshes"`
}

// namedInfo is one mesh's report with its type's name.
type namedInfo struct {
	Name string `json:"name"`
	*infoReport
}

func buildInfoSetReport(path string, format navmesh.Format, set navmesh.MeshSet) *infoSetReport {
	report := &infoSetReport{File: path, Format: format.String(), Types: set.Names()}
	for _, m := range set {
		report.Meshes = append(report.Meshes, namedInfo{Name: m.Name, infoReport: buildInfoReport(path, format, m.Mesh)})
	}
	return report
}

func printInfoSet(w io.Writer, r *infoSetReport) error {
	fmt.Fprintf(w, "file:    %s\n", r.File)
	fmt.Fprintf(w, "format:  %s, %d agent types: %s\n", r.Format, len(r.Types), typeList(r.Types))
	for _, m := range r.Meshes {
		fmt.Fprintf(w, "\ntype %q:\n", m.Name)
		var block strings.Builder
		if err := printInfo(&block, m.infoReport); err != nil {
			return err
		}
		lines := strings.Split(strings.TrimSuffix(block.String(), "\n"), "\n")
		for _, line := range lines[2:] { // the file and format lines are the set's
			if line == "" {
				fmt.Fprintln(w)
				continue
			}
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	return nil
}

// typeList joins names for a message: "soldier", "ogre".
func typeList(names []string) string {
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = strconv.Quote(name)
	}
	return strings.Join(quoted, ", ")
}

// buildInfoReport gathers the counts of every tile of one snapshot of mesh.
func buildInfoReport(path string, format navmesh.Format, mesh *navmesh.Mesh) *infoReport {
	snapshot := mesh.Snapshot()
	params := snapshot.Params()
	report := &infoReport{
		File:   path,
		Format: format.String(),
		Params: infoParams{
			Origin:     vec(params.Origin),
			TileWidth:  jsonFloat(params.TileWidth),
			TileHeight: jsonFloat(params.TileHeight),
			MaxTiles:   params.MaxTiles,
			MaxPolys:   params.MaxPolys,
		},
		PerTile: []infoTile{},
	}
	var bmin, bmax mgl32.Vec3
	report.RuntimeLinks = snapshot.LinkCount()
	for tile := range snapshot.Tiles() {
		if tile.IsLink() {
			continue
		}
		slot := tile.Index()
		h := &tile.Data.Header
		entry := infoTile{
			X: h.X, Y: h.Y, Layer: h.Layer,
			Slot:               slot,
			Salt:               tile.Salt(),
			Ref:                fmt.Sprintf("%#x", uint64(tile.Ref())),
			Polys:              int(h.PolyCount),
			Verts:              int(h.VertCount),
			Links:              countLinks(tile),
			MaxLinks:           int(h.MaxLinkCount),
			DetailVerts:        int(h.DetailVertCount),
			DetailTris:         int(h.DetailTriCount),
			OffMeshConnections: int(h.OffMeshConCount),
			BVNodes:            int(h.BVNodeCount),
			Bounds:             infoBounds{Min: vec(h.BMin), Max: vec(h.BMax)},
		}
		report.PerTile = append(report.PerTile, entry)
		report.Tiles++
		report.Polys += entry.Polys
		report.Verts += entry.Verts
		report.Links += entry.Links
		report.MaxLinks += entry.MaxLinks
		report.DetailVerts += entry.DetailVerts
		report.DetailTris += entry.DetailTris
		report.OffMeshConnections += entry.OffMeshConnections
		report.BVNodes += entry.BVNodes
		if report.Tiles == 1 {
			bmin, bmax = h.BMin, h.BMax
		} else {
			bmin = mgl32.Vec3{min(bmin[0], h.BMin[0]), min(bmin[1], h.BMin[1]), min(bmin[2], h.BMin[2])}
			bmax = mgl32.Vec3{max(bmax[0], h.BMax[0]), max(bmax[1], h.BMax[1]), max(bmax[2], h.BMax[2])}
		}
	}
	if report.Tiles > 0 {
		report.Bounds = &infoBounds{Min: vec(bmin), Max: vec(bmax)}
	}
	return report
}

// countLinks returns the number of links in use: the lengths of all the
// polygons' link lists.
func countLinks(tile *navmesh.Tile) int {
	count := 0
	for i := range tile.Polys {
		for link := tile.Polys[i].FirstLink; link != navmesh.NullLink && count < len(tile.Links); link = tile.Links[link].Next {
			count++
		}
	}
	return count
}

func printInfo(w io.Writer, r *infoReport) error {
	p := r.Params
	fmt.Fprintf(w, "file:    %s\n", r.File)
	fmt.Fprintf(w, "format:  %s\n", r.Format)
	fmt.Fprintf(w, "params:  origin %s, tile size %s x %s, max tiles %d, max polys %d\n",
		formatVec(p.Origin), formatFloat(p.TileWidth), formatFloat(p.TileHeight), p.MaxTiles, p.MaxPolys)
	if r.Bounds != nil {
		fmt.Fprintf(w, "bounds:  %s .. %s\n", formatVec(r.Bounds.Min), formatVec(r.Bounds.Max))
	}
	if r.RuntimeLinks > 0 {
		fmt.Fprintf(w, "links:   %d runtime links\n", r.RuntimeLinks)
	}
	fmt.Fprintf(w, "tiles:   %d\n\n", r.Tiles)

	table := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(table, "x\ty\tlayer\tslot\tsalt\tpolys\tverts\tlinks\tmax links\tdetail verts\tdetail tris\toff-mesh\tBV nodes\t")
	for _, t := range r.PerTile {
		fmt.Fprintf(table, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n",
			t.X, t.Y, t.Layer, t.Slot, t.Salt, t.Polys, t.Verts, t.Links, t.MaxLinks,
			t.DetailVerts, t.DetailTris, t.OffMeshConnections, t.BVNodes)
	}
	fmt.Fprintf(table, "total\t\t\t\t\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n",
		r.Polys, r.Verts, r.Links, r.MaxLinks, r.DetailVerts, r.DetailTris, r.OffMeshConnections, r.BVNodes)
	return table.Flush()
}

func formatFloat(f jsonFloat) string {
	return strconv.FormatFloat(float64(f), 'f', 3, 32)
}

func formatVec(v [3]jsonFloat) string {
	return fmt.Sprintf("(%s, %s, %s)", formatFloat(v[0]), formatFloat(v[1]), formatFloat(v[2]))
}
