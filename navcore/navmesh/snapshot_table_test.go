package navmesh

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRadixTableMatchesMap: random sets through chains of edits read back
// as a map oracle says, earlier versions keep their contents, and each
// visits exactly the set entries in index order.
func TestRadixTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type version struct {
		table  radixTable[int]
		oracle map[uint32]int
	}
	var versions []version
	table, oracle := radixTable[int]{}, map[uint32]int{}
	for round := range 60 {
		e := editRadix(table)
		next := make(map[uint32]int, len(oracle)+8)
		for k, v := range oracle {
			next[k] = v
		}
		for range 1 + rng.IntN(8) {
			var i uint32
			switch rng.IntN(3) {
			case 0:
				i = uint32(rng.IntN(64)) // dense
			case 1:
				i = rng.Uint32() >> 4 // anywhere below 2^28
			default:
				i = rng.Uint32() // the whole range
			}
			v := round*100 + rng.IntN(100) + 1
			e.set(i, v)
			next[i] = v
		}
		table, oracle = e.table, next
		versions = append(versions, version{table, oracle})
	}
	for n, v := range versions {
		for i, want := range v.oracle {
			require.Equal(t, want, v.table.at(i), "version %d index %d", n, i)
		}
		for _, i := range []uint32{1 << 31, 1<<32 - 1, 12345, 77} {
			if _, ok := v.oracle[i]; !ok {
				require.Zero(t, v.table.at(i), "version %d unset index %d", n, i)
			}
		}
		seen := 0
		last := int64(-1)
		v.table.each(func(i uint32, got int) {
			require.Greater(t, int64(i), last, "index order")
			last = int64(i)
			if want, ok := v.oracle[i]; ok {
				require.Equal(t, want, got)
				seen++
			} else {
				require.Zero(t, got)
			}
		})
		require.Equal(t, len(v.oracle), seen, "version %d", n)
	}
}

// TestRadixTableHeightFollowsIndexes: the trie is as high as its largest
// index needs and no higher; an edit owns, and so copies, only the nodes
// on the paths it writes.
func TestRadixTableHeightFollowsIndexes(t *testing.T) {
	for _, c := range []struct {
		index uint32
		shift uint32
	}{{0, 0}, {31, 0}, {32, 5}, {1023, 5}, {1024, 10}, {1<<28 - 1, 25}, {1<<32 - 1, 30}} {
		e := editRadix(radixTable[int]{})
		e.set(c.index, 7)
		assert.Equal(t, c.shift, e.table.shift, "index %d", c.index)
		assert.Equal(t, 7, e.table.at(c.index))
		assert.Equal(t, int(c.shift/radixBits)+1, nodeCount(e.table.root), "index %d: one path", c.index)
	}

	e := editRadix(radixTable[int]{})
	for i := range uint32(1000) {
		e.set(i, int(i))
	}
	base := e.table
	before := nodeCount(base.root)
	changed := editRadix(base)
	changed.set(999, -1)
	changed.set(998, -2)
	assert.Equal(t, 998, base.at(998), "the base is unchanged")
	assert.Equal(t, -2, changed.table.at(998))
	assert.Equal(t, 2, newNodes(base.root, changed.table.root), "root and one leaf copied")
	assert.Equal(t, before, nodeCount(changed.table.root))
}

func nodeCount[T any](n *radixNode[T]) int {
	if n == nil {
		return 0
	}
	count := 1
	if n.children != nil {
		for _, c := range n.children {
			count += nodeCount(c)
		}
	}
	return count
}

// newNodes counts the nodes of b not shared with a, walking both alike.
func newNodes[T any](a, b *radixNode[T]) int {
	if b == nil || a == b {
		return 0
	}
	count := 1
	if b.children == nil {
		return count
	}
	for k, c := range b.children {
		var other *radixNode[T]
		if a != nil && a.children != nil {
			other = a.children[k]
		}
		count += newNodes(other, c)
	}
	return count
}
