package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/bake"
)

// bakeSettingsFile is the -config file of `navtool bake`. Every key is
// optional; a missing key keeps RecastDemo's default. The keys are
// documented in docs/navtool.md.
type bakeSettingsFile struct {
	CellSize                     *float32   `json:"cellSize"`
	CellHeight                   *float32   `json:"cellHeight"`
	AgentHeight                  *float32   `json:"agentHeight"`
	AgentRadius                  *float32   `json:"agentRadius"`
	AgentMaxClimb                *float32   `json:"agentMaxClimb"`
	AgentMaxSlope                *float32   `json:"agentMaxSlope"`
	RegionMinSize                *float32   `json:"regionMinSize"`
	RegionMergeSize              *float32   `json:"regionMergeSize"`
	EdgeMaxLen                   *float32   `json:"edgeMaxLen"`
	EdgeMaxError                 *float32   `json:"edgeMaxError"`
	VertsPerPoly                 *int       `json:"vertsPerPoly"`
	DetailSampleDist             *float32   `json:"detailSampleDist"`
	DetailSampleMaxError         *float32   `json:"detailSampleMaxError"`
	Partition                    *string    `json:"partition"`
	FilterLowHangingObstacles    *bool      `json:"filterLowHangingObstacles"`
	FilterLedgeSpans             *bool      `json:"filterLedgeSpans"`
	FilterWalkableLowHeightSpans *bool      `json:"filterWalkableLowHeightSpans"`
	TileSize                     *int       `json:"tileSize"`
	MaxMemoryMB                  *float64   `json:"maxMemoryMB"`
	MaxTiles                     *int       `json:"maxTiles"`
	MaxWork                      *float64   `json:"maxWork"`
	Links                        *linksJSON `json:"links"`

	ConvexVolumes      []convexVolumeJSON      `json:"convexVolumes"`
	OffMeshConnections []offMeshConnectionJSON `json:"offMeshConnections"`
}

// linksJSON is the "links" object: bake.LinkSettings, every key optional.
type linksJSON struct {
	Drops         *bool    `json:"drops"`
	Jumps         *bool    `json:"jumps"`
	DropMaxHeight *float32 `json:"dropMaxHeight"`
	DropMaxOut    *float32 `json:"dropMaxOut"`
	JumpMaxGap    *float32 `json:"jumpMaxGap"`
	JumpMaxDown   *float32 `json:"jumpMaxDown"`
	JumpMaxUp     *float32 `json:"jumpMaxUp"`
	JumpHeight    *float32 `json:"jumpHeight"`
	Spacing       *float32 `json:"spacing"`
	DropArea      *uint8   `json:"dropArea"`
	JumpArea      *uint8   `json:"jumpArea"`
	DropFlags     *uint16  `json:"dropFlags"`
	JumpFlags     *uint16  `json:"jumpFlags"`
	DropCost      *float32 `json:"dropCost"`
	JumpCost      *float32 `json:"jumpCost"`
}

// apply sets the keys the file has in l.
func (j *linksJSON) apply(l *bake.LinkSettings) {
	if j == nil {
		return
	}
	setBool(&l.Drops, j.Drops)
	setBool(&l.Jumps, j.Jumps)
	setFloat(&l.DropMaxHeight, j.DropMaxHeight)
	setFloat(&l.DropMaxOut, j.DropMaxOut)
	setFloat(&l.JumpMaxGap, j.JumpMaxGap)
	setFloat(&l.JumpMaxDown, j.JumpMaxDown)
	setFloat(&l.JumpMaxUp, j.JumpMaxUp)
	setFloat(&l.JumpHeight, j.JumpHeight)
	setFloat(&l.Spacing, j.Spacing)
	setFloat(&l.DropCost, j.DropCost)
	setFloat(&l.JumpCost, j.JumpCost)
	if j.DropArea != nil {
		l.DropArea = *j.DropArea
	}
	if j.JumpArea != nil {
		l.JumpArea = *j.JumpArea
	}
	if j.DropFlags != nil {
		l.DropFlags = *j.DropFlags
	}
	if j.JumpFlags != nil {
		l.JumpFlags = *j.JumpFlags
	}
}

func setFloat(dst *float32, v *float32) {
	if v != nil {
		*dst = *v
	}
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// convexVolumeJSON is one entry of "convexVolumes".
type convexVolumeJSON struct {
	Points [][3]float32 `json:"points"`
	MinY   float32      `json:"minY"`
	MaxY   float32      `json:"maxY"`
	Area   uint8        `json:"area"`
}

// offMeshConnectionJSON is one entry of "offMeshConnections".
type offMeshConnectionJSON struct {
	Start         [3]float32 `json:"start"`
	End           [3]float32 `json:"end"`
	Radius        float32    `json:"radius"`
	Bidirectional bool       `json:"bidirectional"`
	Area          uint8      `json:"area"`
	Flags         uint16     `json:"flags"`
	UserID        uint32     `json:"userId"`
}

// defaultBakeSettings are the settings of a bake without -config:
// RecastDemo's defaults, solo (tile size 0).
func defaultBakeSettings() bake.Settings {
	s := bake.DefaultSettings()
	s.TileSize = 0
	return s
}

// loadBakeSettings reads a settings file and applies it to base; the
// file's volumes and connections are added to g. Unknown keys, trailing
// data and invalid values are errors.
func loadBakeSettings(path string, g *bake.Geometry, base bake.Settings) (bake.Settings, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return bake.Settings{}, err
	}
	settings, err := parseBakeSettings(file, g, base)
	if err != nil {
		return bake.Settings{}, fmt.Errorf("settings %s: %w", path, err)
	}
	return settings, nil
}

// parseBakeSettings applies a settings file's keys to base and its volumes
// and connections to g, then validates the result.
func parseBakeSettings(file []byte, g *bake.Geometry, base bake.Settings) (bake.Settings, error) {
	decoder := json.NewDecoder(bytes.NewReader(file))
	var keys map[string]json.RawMessage
	if err := decoder.Decode(&keys); err != nil {
		return bake.Settings{}, err
	}
	if _, err := decoder.Token(); !errors.Is(err, io.EOF) {
		return bake.Settings{}, errors.New("data after the settings object")
	}
	// encoding/json matches keys without regard to case; the file's keys
	// must be spelled exactly.
	known := settingsKeys()
	for key := range keys {
		if !known[key] {
			return bake.Settings{}, fmt.Errorf("unknown key %q", key)
		}
	}
	var f bakeSettingsFile
	strict := json.NewDecoder(bytes.NewReader(file))
	strict.DisallowUnknownFields() // unknown keys inside volumes and connections
	if err := strict.Decode(&f); err != nil {
		return bake.Settings{}, err
	}

	s := base
	setFloat(&s.CellSize, f.CellSize)
	setFloat(&s.CellHeight, f.CellHeight)
	setFloat(&s.AgentHeight, f.AgentHeight)
	setFloat(&s.AgentRadius, f.AgentRadius)
	setFloat(&s.AgentMaxClimb, f.AgentMaxClimb)
	setFloat(&s.AgentMaxSlope, f.AgentMaxSlope)
	setFloat(&s.RegionMinSize, f.RegionMinSize)
	setFloat(&s.RegionMergeSize, f.RegionMergeSize)
	setFloat(&s.EdgeMaxLen, f.EdgeMaxLen)
	setFloat(&s.EdgeMaxError, f.EdgeMaxError)
	setFloat(&s.DetailSampleDist, f.DetailSampleDist)
	setFloat(&s.DetailSampleMaxError, f.DetailSampleMaxError)
	if f.VertsPerPoly != nil {
		s.VertsPerPoly = *f.VertsPerPoly
	}
	if f.TileSize != nil {
		s.TileSize = *f.TileSize
	}
	if f.MaxMemoryMB != nil {
		mb := *f.MaxMemoryMB
		if !(mb > 0) || mb > 1<<40 {
			return bake.Settings{}, fmt.Errorf("maxMemoryMB %v: want a positive number of MiB", mb)
		}
		s.MaxMemory = int64(mb * (1 << 20))
	}
	if f.MaxTiles != nil {
		if *f.MaxTiles <= 0 {
			return bake.Settings{}, fmt.Errorf("maxTiles %d: want a positive number", *f.MaxTiles)
		}
		s.MaxTiles = *f.MaxTiles
	}
	if f.MaxWork != nil {
		if !(*f.MaxWork >= 1) || *f.MaxWork > math.MaxInt64/2 {
			return bake.Settings{}, fmt.Errorf("maxWork %v: want a positive number of work units", *f.MaxWork)
		}
		s.MaxWork = int64(*f.MaxWork)
	}
	if f.Partition != nil {
		partition, err := parsePartition(*f.Partition)
		if err != nil {
			return bake.Settings{}, err
		}
		s.Partition = partition
	}
	setBool(&s.Filters.LowHangingObstacles, f.FilterLowHangingObstacles)
	setBool(&s.Filters.LedgeSpans, f.FilterLedgeSpans)
	setBool(&s.Filters.WalkableLowHeightSpans, f.FilterWalkableLowHeightSpans)
	f.Links.apply(&s.Links)
	if err := s.Validate(); err != nil {
		return bake.Settings{}, err
	}

	// Checked in full before g changes.
	var volumes []bake.ConvexVolume
	var connections []bake.OffMeshConnection
	for i, v := range f.ConvexVolumes {
		volume := bake.ConvexVolume{MinY: v.MinY, MaxY: v.MaxY, Area: v.Area}
		for _, p := range v.Points {
			volume.Vertices = append(volume.Vertices, mgl32.Vec3(p))
		}
		if err := volume.Validate(); err != nil {
			return bake.Settings{}, fmt.Errorf("convexVolumes[%d]: %w", i, err)
		}
		volumes = append(volumes, volume)
	}
	for i, c := range f.OffMeshConnections {
		connection := bake.OffMeshConnection{
			Start: mgl32.Vec3(c.Start), End: mgl32.Vec3(c.End), Radius: c.Radius,
			Bidirectional: c.Bidirectional, Area: c.Area, Flags: c.Flags, UserID: c.UserID,
		}
		if err := connection.Validate(); err != nil {
			return bake.Settings{}, fmt.Errorf("offMeshConnections[%d]: %w", i, err)
		}
		connections = append(connections, connection)
	}
	g.ConvexVolumes = append(g.ConvexVolumes, volumes...)
	g.OffMeshConnections = append(g.OffMeshConnections, connections...)
	return s, nil
}

// settingsKeys returns the JSON keys of bakeSettingsFile.
func settingsKeys() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(bakeSettingsFile{})
	for i := range t.NumField() {
		keys[strings.Split(t.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	return keys
}

func parsePartition(name string) (bake.PartitionType, error) {
	for _, p := range []bake.PartitionType{bake.PartitionWatershed, bake.PartitionMonotone, bake.PartitionLayers} {
		if p.String() == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("partition %q: want watershed, monotone or layers", name)
}
