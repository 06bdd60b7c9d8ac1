package level

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/archenav/archenav/bake"
)

//go:embed assets/dungeon.obj
var dungeonOBJ []byte

// EmbeddedName is the file name of the level built into the demo.
const EmbeddedName = "dungeon.obj"

// Embedded bakes the level built into the demo: RecastDemo's dungeon.
func Embedded() (*Level, error) {
	return bakeOBJ(EmbeddedName, dungeonOBJ)
}

// bakeOBJ bakes a Wavefront OBJ level as one tile with RecastDemo's default
// settings (agent radius 0.6, height 2, climb 0.9).
func bakeOBJ(name string, obj []byte) (*Level, error) {
	start := time.Now()
	geometry, err := bake.ReadOBJ(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	result, err := bake.Solo(context.Background(), geometry, bake.DefaultSettings())
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	mesh, err := singleTileMesh(result.TileData)
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	l := &Level{
		Name:      name,
		Mesh:      mesh,
		Baked:     true,
		BakeTime:  time.Since(start),
		Triangles: len(geometry.Triangles),
	}
	return l.finish(), nil
}
