package navmesh

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// fuzzBaseTile is tile A with an off-mesh connection into B and a BV tree.
func fuzzBaseTile() *TileData {
	spec := tileA()
	spec.bvTree = true
	spec.offMesh = []offMeshSpec{
		{start: mgl32.Vec3{5, 0, 2.5}, end: mgl32.Vec3{15, 0, 5}, radius: 0.5, bidir: true, side: 0},
		{start: mgl32.Vec3{2, 0, 2}, end: mgl32.Vec3{8, 0, 8}, radius: 0.5, side: noSide},
	}
	return buildTile(spec)
}

// mutateTileData applies 7-byte mutations (what, index, value) to d.
func mutateTileData(d *TileData, ops []byte) {
	for ; len(ops) >= 7; ops = ops[7:] {
		what, i := ops[0]%16, int(binary.LittleEndian.Uint16(ops[1:]))
		v := binary.LittleEndian.Uint32(ops[3:])
		h := &d.Header
		switch what {
		case 0:
			counts := []*int32{&h.PolyCount, &h.VertCount, &h.MaxLinkCount, &h.DetailMeshCount,
				&h.DetailVertCount, &h.DetailTriCount, &h.BVNodeCount, &h.OffMeshConCount, &h.OffMeshBase}
			*counts[i%len(counts)] = int32(v)
		case 1:
			if len(d.Polys) > 0 {
				d.Polys[i%len(d.Polys)].Verts[int(v>>16)%6] = uint16(v)
			}
		case 2:
			if len(d.Polys) > 0 {
				d.Polys[i%len(d.Polys)].Neighbours[int(v>>16)%6] = uint16(v)
			}
		case 3:
			if len(d.Polys) > 0 {
				d.Polys[i%len(d.Polys)].VertCount = uint8(v)
			}
		case 4:
			if len(d.Polys) > 0 {
				d.Polys[i%len(d.Polys)].AreaAndType = uint8(v)
			}
		case 5:
			if len(d.DetailMeshes) > 0 {
				m := &d.DetailMeshes[i%len(d.DetailMeshes)]
				switch v >> 30 {
				case 0:
					m.VertBase = v & 0xff
				case 1:
					m.TriBase = v & 0xff
				case 2:
					m.VertCount = uint8(v)
				default:
					m.TriCount = uint8(v)
				}
			}
		case 6:
			if len(d.DetailTris) > 0 {
				d.DetailTris[i%len(d.DetailTris)][v>>30] = uint8(v)
			}
		case 7:
			if len(d.BVTree) > 0 {
				d.BVTree[i%len(d.BVTree)].Index = int32(v)
			}
		case 8:
			if len(d.BVTree) > 0 {
				n := &d.BVTree[i%len(d.BVTree)]
				if v>>31 == 0 {
					n.BMin[v>>16%3] = uint16(v)
				} else {
					n.BMax[v>>16%3] = uint16(v)
				}
			}
		case 9:
			if len(d.OffMeshConnections) > 0 {
				c := &d.OffMeshConnections[i%len(d.OffMeshConnections)]
				switch v >> 30 {
				case 0:
					c.Poly = uint16(v)
				case 1:
					c.Side = uint8(v)
				case 2:
					c.Flags = uint8(v)
				default:
					c.Radius = math.Float32frombits(v)
				}
			}
		case 10:
			if len(d.Verts) > 0 {
				d.Verts[i%len(d.Verts)][i%3] = math.Float32frombits(v)
			}
		case 11:
			if len(d.OffMeshConnections) > 0 {
				c := &d.OffMeshConnections[i%len(d.OffMeshConnections)]
				c.End[i%3] = math.Float32frombits(v)
			}
		case 12:
			h.X, h.Y, h.Layer = int32(int8(v)), int32(int8(v>>8)), int32(int8(v>>16))
		case 13:
			h.WalkableClimb = math.Float32frombits(v)
		case 14:
			h.BVQuantFactor = math.Float32frombits(v)
		case 15:
			// Drop the tail of a slice, keeping the header count.
			switch v % 4 {
			case 0:
				d.Polys = d.Polys[:i%(len(d.Polys)+1)]
			case 1:
				d.Verts = d.Verts[:i%(len(d.Verts)+1)]
			case 2:
				d.DetailTris = d.DetailTris[:i%(len(d.DetailTris)+1)]
			default:
				d.BVTree = d.BVTree[:i%(len(d.BVTree)+1)]
			}
		}
	}
}

// FuzzAddTile corrupts a valid tile and adds it next to tile B. A rejected
// tile must change nothing; an accepted one must link, answer queries and
// come out again without a panic or a dangling link.
func FuzzAddTile(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 0, 0, 0x05, 0x80, 2, 0})       // a border code
	f.Add([]byte{10, 1, 0, 0, 0, 0xc0, 0x7f})      // a NaN vertex
	f.Add([]byte{7, 0, 0, 0xfc, 0xff, 0xff, 0xff}) // a BV escape
	f.Add([]byte{9, 0, 0, 0, 0, 0, 0x40})          // an off-mesh side
	f.Add([]byte{12, 0, 0, 1, 1, 0, 0})            // another location
	f.Fuzz(func(t *testing.T, ops []byte) {
		m, err := New(testParams(4))
		if err != nil {
			t.Fatal(err)
		}
		refB, err := m.AddTile(buildTile(tileB()), 0)
		if err != nil {
			t.Fatal(err)
		}
		data := fuzzBaseTile()
		mutateTileData(data, ops)
		before := m.Snapshot()
		ref, err := m.AddTile(data, 0)
		if err != nil {
			if !errors.Is(err, ErrInvalidData) && !errors.Is(err, ErrTileExists) {
				t.Fatalf("unexpected error %v", err)
			}
			if m.Snapshot() != before {
				t.Fatal("a rejected tile changed the mesh")
			}
			return
		}
		s := m.Snapshot()
		if _, ok := checkSnapshotQuiet(s); !ok {
			t.Fatal("a link does not resolve")
		}
		tile := s.TileByRef(ref)
		var refs []Ref
		for i := range tile.Polys {
			pref := tile.PolyRefBase() | Ref(i)
			for _, v := range tile.Verts {
				s.ClosestPointOnPoly(pref, v)
				tile.PolyHeight(&tile.Polys[i], v)
				tile.FindNearestPoly(v, mgl32.Vec3{1, 1, 1})
				refs = tile.QueryPolygons(v, v.Add(mgl32.Vec3{1, 1, 1}), refs[:0])
			}
			s.OffMeshConnectionEndPoints(0, pref)
			s.OffMeshConnectionByRef(pref)
		}
		if _, err := m.RemoveTile(ref); err != nil {
			t.Fatal(err)
		}
		if m.TileByRef(refB).hasLinksTo(ref.TileIndex()) {
			t.Fatal("tile B still links to the removed tile")
		}
	})
}

// checkSnapshotQuiet resolves every link of s, reporting failure instead of
// asserting (for the fuzzer, where tiles need not be symmetric).
func checkSnapshotQuiet(s *Snapshot) (int, bool) {
	links := 0
	for i := range s.MaxTiles() {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		for ip := range tile.Polys {
			for l := tile.Polys[ip].FirstLink; l != NullLink; l = tile.Links[l].Next {
				links++
				if links > 1<<20 || !s.IsValid(tile.Links[l].Ref) {
					return links, false
				}
			}
		}
	}
	return links, true
}
