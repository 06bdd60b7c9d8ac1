package main

import (
	"fmt"
	"image/color"
	"math"
	"net/http"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// The studio's queries run as `navtool query` runs them with its default
// flags: a node pool of 2048, half extents 2, 4, 2, include flags 0xffef,
// corridors and straight paths of at most 256.
const (
	studioQueryNodes   = 2048
	studioQueryMaxPath = 256
)

var (
	studioQueryExtents = geom.Vec3{2, 4, 2}
	studioQueryInclude = uint16(0xffef)
)

// studioQueryRequest is the body of POST /api/query.
type studioQueryRequest struct {
	// Kind is path (start to end: corridor and straight path, as navtool
	// query), raycast (start to end along the surface) or nearest (the
	// polygon nearest start).
	Kind  string      `json:"kind"`
	Start [3]float32  `json:"start"`
	End   *[3]float32 `json:"end"`
}

// studioQueryResult is the answer: the numbers, and the overlay to draw
// (the layer encoding, which JSON carries as base64).
type studioQueryResult struct {
	Kind  string     `json:"kind"`
	Start [3]float32 `json:"start"`
	End   [3]float32 `json:"end"`

	StartRef string `json:"startRef,omitempty"`
	EndRef   string `json:"endRef,omitempty"`
	// Path: the columns of navtool query's output.
	StartFound bool         `json:"startFound"`
	EndFound   bool         `json:"endFound"`
	Partial    bool         `json:"partial"`
	Polys      int          `json:"polys"`
	Straight   int          `json:"straight"`
	Length3D   float64      `json:"length3d"`
	Length2D   float64      `json:"length2d"`
	Corridor   []string     `json:"corridor,omitempty"`
	Points     [][3]float32 `json:"points,omitempty"`
	// Raycast: the fraction of start to end reached (1 when nothing was
	// hit), the hit point and the wall's normal.
	Hit       bool       `json:"hit"`
	T         float32    `json:"t"`
	HitPoint  [3]float32 `json:"hitPoint"`
	HitNormal [3]float32 `json:"hitNormal"`
	// Nearest: the point found and its distance from start.
	Nearest  [3]float32 `json:"nearest"`
	Distance float64    `json:"distance"`
	OverPoly bool       `json:"overPoly"`

	Overlay []byte `json:"overlay"`
	Error   string `json:"error,omitempty"`
}

func (s *studio) serveQuery(w http.ResponseWriter, r *http.Request) {
	var req studioQueryRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	s.mu.Lock()
	mesh := s.mesh
	s.mu.Unlock()
	// A Mesh is safe for concurrent readers; each request has its own Query.
	res, err := runStudioQuery(mesh, req)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	writeJSON(w, res)
}

// runStudioQuery answers one query on mesh.
func runStudioQuery(mesh *navmesh.Mesh, req studioQueryRequest) (*studioQueryResult, error) {
	start := geom.Vec3(req.Start)
	if !geom.IsFinite(start) {
		return nil, fmt.Errorf("start %v is not finite", start)
	}
	var end geom.Vec3
	if req.Kind != "nearest" {
		if req.End == nil {
			return nil, fmt.Errorf("a %s query needs an end", req.Kind)
		}
		if end = geom.Vec3(*req.End); !geom.IsFinite(end) {
			return nil, fmt.Errorf("end %v is not finite", end)
		}
	}
	q, err := query.New(mesh, studioQueryNodes)
	if err != nil {
		return nil, err
	}
	filter := query.NewFilter()
	filter.IncludeFlags = studioQueryInclude
	res := &studioQueryResult{Kind: req.Kind, Start: req.Start, End: [3]float32(end)}
	var overlay debugdraw.Recorder
	style := navdraw.DefaultStyle()
	// Stronger than the default, to stand out on the polygons layer.
	style.Corridor = color.NRGBA{255, 196, 0, 120}
	style.Path = color.NRGBA{230, 30, 30, 255}
	snap := mesh.Snapshot()
	switch req.Kind {
	case "path":
		runner := &pairRunner{q: q, filter: filter, extents: studioQueryExtents,
			path: make([]navmesh.Ref, studioQueryMaxPath), points: make([]query.StraightPathPoint, studioQueryMaxPath)}
		row, err := runner.run(queryPair{start: start, end: end})
		if err != nil {
			return nil, err
		}
		res.StartFound, res.EndFound, res.Partial = row.startFound, row.endFound, row.partial
		res.Polys, res.Straight, res.Length3D, res.Length2D = row.polys, row.straight, row.length3D, row.length2D
		for _, ref := range runner.path[:row.polys] {
			res.Corridor = append(res.Corridor, fmt.Sprintf("%#x", uint64(ref)))
		}
		for _, p := range runner.points[:row.straight] {
			res.Points = append(res.Points, [3]float32(p.Pos))
		}
		navdraw.Corridor(&overlay, snap, runner.path[:row.polys], style)
		navdraw.StraightPath(&overlay, runner.points[:row.straight], style)
	case "raycast":
		nearest, err := q.FindNearestPoly(start, studioQueryExtents, filter)
		if err != nil {
			return nil, err
		}
		res.StartFound = nearest.Ref != 0
		if !res.StartFound {
			break
		}
		res.StartRef = fmt.Sprintf("%#x", uint64(nearest.Ref))
		path := make([]navmesh.Ref, studioQueryMaxPath)
		hit, _, err := q.Raycast(nearest.Ref, start, end, filter, 0, 0, path)
		if err != nil {
			return nil, err
		}
		res.Hit = hit.T <= 1
		res.T = min(hit.T, 1)
		point := start.Add(end.Sub(start).Mul(res.T))
		res.HitPoint, res.HitNormal = [3]float32(point), [3]float32(hit.HitNormal)
		res.Polys = hit.PathCount
		for _, ref := range path[:hit.PathCount] {
			res.Corridor = append(res.Corridor, fmt.Sprintf("%#x", uint64(ref)))
		}
		navdraw.Corridor(&overlay, snap, path[:hit.PathCount], style)
		lineColor := color.NRGBA{64, 220, 64, 255}
		if res.Hit {
			lineColor = color.NRGBA{240, 60, 60, 255}
		}
		lift := geom.Vec3{0, 0.2, 0}
		overlay.Line(start.Add(lift), point.Add(lift), 3, lineColor)
		overlay.Point(point.Add(lift), 10, lineColor)
	case "nearest":
		nearest, err := q.FindNearestPoly(start, studioQueryExtents, filter)
		if err != nil {
			return nil, err
		}
		res.StartFound = nearest.Ref != 0
		if !res.StartFound {
			break
		}
		res.StartRef = fmt.Sprintf("%#x", uint64(nearest.Ref))
		res.Nearest, res.OverPoly = [3]float32(nearest.Point), nearest.OverPoly
		res.Distance = math.Sqrt(float64(geom.DistSqr(nearest.Point, start)))
		navdraw.Polygon(&overlay, snap, nearest.Ref, color.NRGBA{255, 196, 0, 160}, style)
		overlay.Point(nearest.Point.Add(geom.Vec3{0, 0.2, 0}), 10, color.NRGBA{255, 160, 0, 255})
	default:
		return nil, fmt.Errorf("query kind %q: want path, raycast or nearest", req.Kind)
	}
	if res.Overlay, err = encodeLayer(&overlay); err != nil {
		return nil, err
	}
	return res, nil
}
