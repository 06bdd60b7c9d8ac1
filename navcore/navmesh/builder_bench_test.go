package navmesh

import (
	"testing"
)

// BenchmarkBuildTileDataDungeon builds the solo dungeon tile from its poly
// mesh and detail mesh (the C++ takes 0.04 ms for this step).
func BenchmarkBuildTileDataDungeon(b *testing.B) {
	params := buildParamsFromTile(b, readDungeonTile(b), referenceCellSize, referenceCellHeight)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildTileData(params); err != nil {
			b.Fatal(err)
		}
	}
}
