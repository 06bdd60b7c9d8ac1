package navdraw_test

import (
	"testing"

	"github.com/archenav/archenav/navcore/navdraw"
)

// FuzzParseLayers: any text parses or fails without panicking, and what
// parses prints back to the same layers.
func FuzzParseLayers(f *testing.F) {
	for _, seed := range []string{"", "mesh", "all", "polygons,walls", " tiles , bvtree ", "mesh,,offmesh", "walls,nope", ","} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		layers, err := navdraw.ParseLayers(s)
		if err != nil {
			return
		}
		back, err := navdraw.ParseLayers(layers.String())
		if err != nil || back != layers {
			t.Fatalf("%q parsed to %v, printed %q, parsed back to %v (%v)", s, layers, layers.String(), back, err)
		}
	})
}
