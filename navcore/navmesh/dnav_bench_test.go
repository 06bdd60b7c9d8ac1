package navmesh

import (
	"testing"
)

func BenchmarkReadDNAVDungeon(b *testing.B) {
	blob := readDungeonBlob(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(blob)))
	for i := 0; i < b.N; i++ {
		if _, err := ReadDNAV(blob); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalDNAVDungeon(b *testing.B) {
	data := readDungeonTile(b)
	b.ReportAllocs()
	b.SetBytes(int64(DNAVSize(data)))
	for i := 0; i < b.N; i++ {
		if _, err := MarshalDNAV(data); err != nil {
			b.Fatal(err)
		}
	}
}
