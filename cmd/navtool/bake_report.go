package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/archenav/archenav/bake"
)

// bakeReport is what `navtool bake` prints; its JSON form is the -json
// output. In a tiled bake the counts are sums over the tiles and the hashes
// combine the tiles' (see docs/navtool.md).
type bakeReport struct {
	Input          string `json:"input"`
	InputVertices  int    `json:"inputVertices"`
	InputTriangles int    `json:"inputTriangles"`
	Mode           string `json:"mode"`
	GridWidth      int    `json:"gridWidth"`
	GridHeight     int    `json:"gridHeight"`
	TileSize       int    `json:"tileSize"`
	TilesX         int    `json:"tilesX"`
	TilesY         int    `json:"tilesY"`
	Tiles          int    `json:"tiles"`
	TilesBaked     int    `json:"tilesBaked"`
	Workers        int    `json:"workers"`
	// TileRange is the part of the tile grid baked (tiled and tile cache
	// bakes), as -tiles spells it.
	TileRange string `json:"tileRange,omitempty"`
	// The layer figures of a tile cache bake, only in that mode.
	*layerReport

	HeightfieldSpans int `json:"heightfieldSpans"`
	CompactSpans     int `json:"compactSpans"`
	WalkableSpans    int `json:"walkableSpans"`
	Regions          int `json:"regions"`
	Contours         int `json:"contours"`
	PolyVerts        int `json:"polyVerts"`
	Polys            int `json:"polys"`
	DetailVerts      int `json:"detailVerts"`
	DetailTris       int `json:"detailTris"`
	TileBytes        int `json:"tileBytes"`
	DropLinks        int `json:"dropLinks"`
	JumpLinks        int `json:"jumpLinks"`

	PolyMeshHash   string `json:"polyMeshHash"`
	DetailMeshHash string `json:"detailMeshHash"`
	TileHash       string `json:"tileHash"`

	// Work is the bake's work estimate, checked against the settings'
	// maxWork before the bake started.
	Work *workReport `json:"work,omitempty"`

	StagesMs stagesMs `json:"stagesMs"`
	TotalMs  float64  `json:"totalMs"`
	Warnings []string `json:"warnings"`

	Output      string `json:"output"`
	Format      string `json:"format"`
	OutputBytes int    `json:"outputBytes"`
}

// layerReport holds the figures of a tile cache bake (the reference
// figures' names).
type layerReport struct {
	Layers          int `json:"layers"`
	TilesWithLayers int `json:"tilesWithLayers"`
	MaxLayersInTile int `json:"maxLayersInTile"`
	DroppedLayers   int `json:"droppedLayers"`
	LayerRawBytes   int `json:"layerRawBytes"`
	// LayerCompressedBytes is the size of the layers encoded with FastLZ.
	LayerCompressedBytes int    `json:"layerCompressedBytes"`
	LayerHash            string `json:"layerHash"`
}

// workReport is a bake's work estimate (bake.WorkEstimate) and the time it
// implies on the bake's workers.
type workReport struct {
	// Units is the estimate's total, Grids, Cells, Regions, Footprint
	// and Triangles its parts.
	Units     int64 `json:"units"`
	Grids     int64 `json:"grids"`
	Cells     int64 `json:"cells"`
	Regions   int64 `json:"regions"`
	Footprint int64 `json:"footprint"`
	Triangles int64 `json:"triangles"`
	// Workers is the goroutines the time is shared among; Seconds is the
	// bake's typical wall time on that many free cores, MaxSeconds the
	// slowest (bake.WorkEstimate.Time).
	Workers    int     `json:"workers"`
	Seconds    float64 `json:"seconds"`
	MaxSeconds float64 `json:"maxSeconds"`
	// text is the estimate as the text summary prints it.
	text string
}

// newWorkReport reports work shared among workers goroutines.
func newWorkReport(work bake.WorkEstimate, workers int) *workReport {
	workers = int(min(max(int64(workers), 1), max(work.Grids, 1)))
	typical, slowest := work.Time(workers)
	return &workReport{
		Units: work.Total(), Grids: work.Grids, Cells: work.Cells, Regions: work.Regions, Footprint: work.Footprint, Triangles: work.Triangles,
		Workers: workers, Seconds: typical.Seconds(), MaxSeconds: slowest.Seconds(),
		text: fmt.Sprintf("%v: about %s, at most %s on %d workers", work, roundDuration(typical), roundDuration(slowest), workers),
	}
}

// roundDuration rounds d to 2 significant digits, at least a millisecond.
func roundDuration(d time.Duration) time.Duration {
	unit := time.Millisecond
	for d >= 100*unit {
		unit *= 10
	}
	return d.Round(unit)
}

// stagesMs holds the time per stage in milliseconds, in pipeline order.
type stagesMs struct {
	Rasterize     float64 `json:"rasterize"`
	Filters       float64 `json:"filters"`
	Compact       float64 `json:"compact"`
	Erode         float64 `json:"erode"`
	DistanceField float64 `json:"distanceField"`
	Regions       float64 `json:"regions"`
	Contours      float64 `json:"contours"`
	PolyMesh      float64 `json:"polyMesh"`
	DetailMesh    float64 `json:"detailMesh"`
	TileData      float64 `json:"tileData"`
	Links         float64 `json:"links"`
	// Layers is the heightfield layer stage of tile cache bakes.
	Layers float64 `json:"layers,omitempty"`
}

func newStagesMs(times [bake.NumStages]time.Duration) stagesMs {
	return stagesMs{
		Rasterize:     ms(times[bake.StageRasterize]),
		Filters:       ms(times[bake.StageFilters]),
		Compact:       ms(times[bake.StageCompact]),
		Erode:         ms(times[bake.StageErode]),
		DistanceField: ms(times[bake.StageDistanceField]),
		Regions:       ms(times[bake.StageRegions]),
		Contours:      ms(times[bake.StageContours]),
		PolyMesh:      ms(times[bake.StagePolyMesh]),
		DetailMesh:    ms(times[bake.StageDetailMesh]),
		TileData:      ms(times[bake.StageTileData]),
		Links:         ms(times[bake.StageLinks]),
		Layers:        ms(times[bake.StageLayers]),
	}
}

// ms converts a duration to milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return math.Round(float64(d.Nanoseconds())/1e3) / 1e3 }

func hex16(h uint64) string { return fmt.Sprintf("%016x", h) }

func (r *bakeReport) setCounts(c *bake.BuildCounts) {
	r.HeightfieldSpans, r.CompactSpans, r.WalkableSpans = c.HeightfieldSpans, c.CompactSpans, c.WalkableSpans
	r.Regions, r.Contours = c.Regions, c.Contours
	r.PolyVerts, r.Polys = c.PolyVerts, c.Polys
	r.DetailVerts, r.DetailTris = c.DetailVerts, c.DetailTris
	r.TileBytes = c.TileBytes
	r.DropLinks, r.JumpLinks = c.DropLinks, c.JumpLinks
}

func (r *bakeReport) setSolo(result *bake.SoloResult) {
	r.Mode = "solo"
	r.GridWidth, r.GridHeight = result.Config.Width, result.Config.Height
	r.TilesX, r.TilesY, r.Tiles, r.TilesBaked, r.Workers = 1, 1, 1, 1, 1
	r.setCounts(&result.Stats.Counts)
	r.PolyMeshHash = hex16(result.Fingerprints.PolyMesh)
	r.DetailMeshHash = hex16(result.Fingerprints.DetailMesh)
	r.TileHash = hex16(result.Fingerprints.TileData)
	r.StagesMs = newStagesMs(result.Stats.StageTimes)
	r.TotalMs = ms(result.Stats.Total)
	r.Warnings = append([]string{}, result.Stats.Warnings...)
}

// setTiled fills the report from a tiled bake: counts summed over the
// tiles, hashes chained over the tiles (TiledResult.Fingerprints).
func (r *bakeReport) setTiled(result *bake.TiledResult) error {
	s := &result.Stats
	r.Mode = "tiled"
	bmin, bmax := result.Baker.Bounds()
	r.GridWidth, r.GridHeight = bake.CalcGridSize(bmin, bmax, result.Baker.Settings().CellSize)
	r.TileSize = result.Baker.Settings().TileSize
	r.TilesX, r.TilesY, r.Tiles, r.Workers = s.TilesX, s.TilesY, s.TilesWithData, s.Workers
	r.TileRange = s.Range.String()
	r.TilesBaked = s.TilesBaked
	r.setCounts(&s.Counts)

	fingerprints, err := result.Fingerprints()
	if err != nil {
		return err
	}
	r.PolyMeshHash = hex16(fingerprints.PolyMesh)
	r.DetailMeshHash = hex16(fingerprints.DetailMesh)
	r.TileHash = hex16(fingerprints.TileData)
	r.StagesMs = newStagesMs(s.StageTimes)
	r.TotalMs = ms(s.Wall)
	r.Warnings = append([]string{}, s.Warnings...)
	if s.DroppedWarnings > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("(%d more warnings)", s.DroppedWarnings))
	}
	return nil
}

// setTileCache fills the report from a tile cache bake: span counts summed
// over the tiles, the layer figures and their hash.
func (r *bakeReport) setTileCache(result *bake.TileCacheResult) {
	s := &result.Stats
	r.Mode = "tilecache"
	bmin, bmax := result.Baker.Bounds()
	r.GridWidth, r.GridHeight = bake.CalcGridSize(bmin, bmax, result.Baker.Settings().CellSize)
	r.TileSize = result.Baker.Settings().TileSize
	r.TilesX, r.TilesY, r.Tiles, r.Workers = s.TilesX, s.TilesY, s.TilesWithLayers, s.Workers
	r.TileRange = s.Range.String()
	r.setCounts(&s.Counts)
	r.layerReport = &layerReport{
		Layers:               s.Layers,
		TilesWithLayers:      s.TilesWithLayers,
		MaxLayersInTile:      s.MaxLayersInTile,
		DroppedLayers:        s.DroppedLayers,
		LayerRawBytes:        s.LayerRawBytes,
		LayerCompressedBytes: s.LayerCompressedBytes,
		LayerHash:            hex16(result.LayerHash()),
	}
	r.StagesMs = newStagesMs(s.StageTimes)
	r.TotalMs = ms(s.Wall)
	r.Warnings = append([]string{}, s.Warnings...)
	if s.DroppedWarnings > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("(%d more warnings)", s.DroppedWarnings))
	}
}

func printBakeReport(w io.Writer, r *bakeReport) error {
	fmt.Fprintf(w, "input:        %s (%d vertices, %d triangles)\n", r.Input, r.InputVertices, r.InputTriangles)
	switch r.Mode {
	case "solo":
		fmt.Fprintf(w, "bake:         solo, %d x %d cells\n", r.GridWidth, r.GridHeight)
	case "tilecache":
		fmt.Fprintf(w, "bake:         tile cache layers, %d x %d cells, tiles of %d cells: %d x %d grid, tiles %s, %d with layers, %d workers\n",
			r.GridWidth, r.GridHeight, r.TileSize, r.TilesX, r.TilesY, r.TileRange, r.Tiles, r.Workers)
		fmt.Fprintf(w, "spans:        %d heightfield, %d compact, %d walkable\n", r.HeightfieldSpans, r.CompactSpans, r.WalkableSpans)
		l := r.layerReport
		fmt.Fprintf(w, "layers:       %d (at most %d in a tile, %d dropped), %d bytes raw, %d with FastLZ (hash %s)\n",
			l.Layers, l.MaxLayersInTile, l.DroppedLayers, l.LayerRawBytes, l.LayerCompressedBytes, l.LayerHash)
		st := r.StagesMs
		fmt.Fprintf(w, "stages (ms):  rasterize %.2f, filters %.2f, compact %.2f, erode %.2f, layers %.2f; total %.2f\n",
			st.Rasterize, st.Filters, st.Compact, st.Erode, st.Layers, r.TotalMs)
		printWarnings(w, r)
		return nil
	default:
		fmt.Fprintf(w, "bake:         tiled, %d x %d cells, tiles of %d cells: %d x %d grid, tiles %s, %d baked, %d with data, %d workers\n",
			r.GridWidth, r.GridHeight, r.TileSize, r.TilesX, r.TilesY, r.TileRange, r.TilesBaked, r.Tiles, r.Workers)
	}
	fmt.Fprintf(w, "spans:        %d heightfield, %d compact, %d walkable\n", r.HeightfieldSpans, r.CompactSpans, r.WalkableSpans)
	fmt.Fprintf(w, "regions:      %d, contours %d\n", r.Regions, r.Contours)
	fmt.Fprintf(w, "poly mesh:    %d polygons, %d vertices (hash %s)\n", r.Polys, r.PolyVerts, r.PolyMeshHash)
	fmt.Fprintf(w, "detail mesh:  %d triangles, %d vertices (hash %s)\n", r.DetailTris, r.DetailVerts, r.DetailMeshHash)
	fmt.Fprintf(w, "tile data:    %d bytes (hash %s)\n", r.TileBytes, r.TileHash)
	if r.DropLinks > 0 || r.JumpLinks > 0 || r.StagesMs.Links > 0 {
		fmt.Fprintf(w, "links:        %d drops, %d jumps\n", r.DropLinks, r.JumpLinks)
	}
	st := r.StagesMs
	fmt.Fprintf(w, "stages (ms):  rasterize %.2f, filters %.2f, compact %.2f, erode %.2f, distance field %.2f, regions %.2f,\n",
		st.Rasterize, st.Filters, st.Compact, st.Erode, st.DistanceField, st.Regions)
	fmt.Fprintf(w, "              contours %.2f, poly mesh %.2f, detail mesh %.2f, tile data %.2f, links %.2f; total %.2f\n",
		st.Contours, st.PolyMesh, st.DetailMesh, st.TileData, st.Links, r.TotalMs)
	printWarnings(w, r)
	return nil
}

// printWarnings prints the warnings and the file written, if any.
func printWarnings(w io.Writer, r *bakeReport) {
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "warnings:     %s\n", strings.Join(r.Warnings, "\n              "))
	}
	if r.Output != "" {
		fmt.Fprintf(w, "wrote:        %s (%s, %d bytes)\n", r.Output, r.Format, r.OutputBytes)
	}
}
