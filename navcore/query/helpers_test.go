package query

import "github.com/archenav/archenav/navcore/internal/testmesh"

// referenceFilter is the filter of the reference runs: every flag but
// "disabled" (0x10).
func referenceFilter() *Filter {
	f := NewFilter()
	f.IncludeFlags = testmesh.DungeonIncludeFlags
	f.ExcludeFlags = 0
	return f
}
