package bake_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/archenav/archenav/bake"
)

// Estimate a bake's work before baking, and see a setting that would bake
// for a minute refused at once.
func ExampleEstimateWork() {
	g, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	settings := bake.DefaultSettings()
	estimate, err := bake.EstimateWork(g, settings)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("32-cell tiles at 0.3:", estimate)
	typical, slowest := estimate.Time(2)
	fmt.Println("on 2 cores: about", typical.Round(time.Millisecond), "at most", slowest.Round(time.Millisecond))

	settings.CellSize, settings.TileSize = 0.01, 64
	_, err = bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	fmt.Println("64-cell tiles at 0.01 refused:", errors.Is(err, bake.ErrWorkLimit))
	// Output:
	// 32-cell tiles at 0.3: about 939 thousand work units (74 grids of 130536 cells, 85618 watershed, 682532 covered by triangles, 10133 triangles)
	// on 2 cores: about 47ms at most 939ms
	// 64-cell tiles at 0.01 refused: true
}
