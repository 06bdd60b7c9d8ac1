package navmesh

// slotAllocator hands out tile slots in the order of the C++ free list
// without materialising it: a fresh mesh gives slots 0, 1, 2, ...; a removed
// slot goes to the head of the list and is reused first. Its memory grows
// with the slots ever used, not with MaxTiles. Only the Mesh writer uses it.
type slotAllocator struct {
	maxTiles uint32
	// freed holds removed slots with their next salt; the last entry is the
	// head of the free list.
	freed []freedSlot
	// nextFresh is the lowest never-used slot; every slot above it is unused
	// except those in takenFresh (claimed out of order by AddTile at a ref).
	nextFresh  uint32
	takenFresh map[uint32]struct{}
}

type freedSlot struct {
	index uint32
	salt  uint32
}

// firstSalt is the salt of a slot that has never held a tile.
const firstSalt = 1

// choose picks the slot AddTile would use for lastRef (0: the head of the
// free list) and the salt the tile gets, without changing the allocator.
func (a *slotAllocator) choose(lastRef TileRef) (index, salt uint32, err error) {
	if lastRef == 0 {
		if n := len(a.freed); n > 0 {
			return a.freed[n-1].index, a.freed[n-1].salt, nil
		}
		if a.nextFresh >= a.maxTiles {
			return 0, 0, ErrOutOfTiles
		}
		return a.nextFresh, firstSalt, nil
	}
	index, salt = lastRef.TileIndex(), lastRef.Salt()
	if index >= a.maxTiles {
		return 0, 0, errTileIndexRange
	}
	if salt == 0 {
		return 0, 0, errZeroSalt
	}
	if a.isFree(index) {
		return index, salt, nil
	}
	return 0, 0, ErrTileExists
}

func (a *slotAllocator) isFree(index uint32) bool {
	for _, f := range a.freed {
		if f.index == index {
			return true
		}
	}
	if index < a.nextFresh {
		return false
	}
	_, taken := a.takenFresh[index]
	return !taken
}

// take removes a slot returned by choose from the free list.
func (a *slotAllocator) take(index uint32) {
	for i := len(a.freed) - 1; i >= 0; i-- {
		if a.freed[i].index == index {
			a.freed = append(a.freed[:i], a.freed[i+1:]...)
			return
		}
	}
	if index != a.nextFresh {
		if a.takenFresh == nil {
			a.takenFresh = make(map[uint32]struct{})
		}
		a.takenFresh[index] = struct{}{}
		return
	}
	a.nextFresh++
	for {
		if _, taken := a.takenFresh[a.nextFresh]; !taken {
			return
		}
		delete(a.takenFresh, a.nextFresh)
		a.nextFresh++
	}
}

// release puts a slot at the head of the free list with the salt its next
// tile will get.
func (a *slotAllocator) release(index, nextSalt uint32) {
	a.freed = append(a.freed, freedSlot{index: index, salt: nextSalt})
}

// nextSalt returns the salt a slot gets after holding a tile with salt:
// one more, wrapped to SaltBits, never 0.
func nextSalt(salt uint32) uint32 {
	salt = (salt + 1) & saltMask
	if salt == 0 {
		salt = 1
	}
	return salt
}
