package level

import (
	_ "embed"
	"errors"
	"fmt"
)

// Stand-in until bake.Solo is on main: the embedded level is the C++ bake
// of assets/dungeon.obj with RecastDemo's defaults (bake.Solo reproduces it
// bit for bit), and .obj files cannot be baked yet. This file goes when the
// demo bakes dungeon.obj itself.

//go:embed assets/navmesh_solo_dungeon.bin
var dungeonNavmesh []byte

// Embedded returns the level built into the demo: RecastDemo's dungeon.
func Embedded() (*Level, error) {
	l, err := loadNavmesh("dungeon.obj", dungeonNavmesh)
	if err != nil {
		return nil, fmt.Errorf("level: embedded dungeon: %w", err)
	}
	return l, nil
}

func bakeOBJ(name string, _ []byte) (*Level, error) {
	return nil, fmt.Errorf("level: %s: %w", name, errors.New("baking .obj levels is not in this build yet; pass a navmesh file (DNAV or MSET)"))
}
