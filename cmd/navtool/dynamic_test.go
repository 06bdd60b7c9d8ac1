package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFile writes content to name in dir and returns its path.
func writeDynamicFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// TestDynamicCommand bakes dungeon without headroom (so its tiles are
// navtool bake's), digs a pit across a corridor with a collider far
// outside the level refused, bridges it with a box and a triangle mesh
// plank, moves the bridge, and clears every collider: the report counts
// the changes and rebuilt tiles, and the last state's tile hash is the
// initial one.
func TestDynamicCommand(t *testing.T) {
	dir := t.TempDir()
	header := "id,type,mode,x,y,z,hx,hy,hz,radius,halfheight,yaw,pitch,roll,area,mesh\n"
	pit := writeDynamicFile(t, dir, "pit.csv", header+
		"pit,box,carve,18,10.2,0.65,1.5,1,6,,,,,,,\n"+
		"far,sphere,solid,500,0,0,,,,1,,,,,,\n")
	writeDynamicFile(t, dir, "plank.obj", "v -2.5 0 -1\nv -2.5 0 1\nv 2.5 0 1\nv 2.5 0 -1\nf 1 2 3\nf 1 3 4\n")
	bridge := writeDynamicFile(t, dir, "bridge.csv", header+
		"pit,box,carve,18,10.2,0.65,1.5,1,6,,,,,,,\n"+
		"bridge,orientedbox,solid,18,10.05,0.65,3,0.15,1.5,,,0,0,0,,\n"+
		"plank,trimesh,,18,10.2,-3,,,,,,,,,63,plank.obj\n")
	moved := writeDynamicFile(t, dir, "moved.csv", header+
		"pit,box,carve,18,10.2,0.65,1.5,1,6,,,,,,,\n"+
		"bridge,orientedbox,solid,18,10.05,1.65,3,0.15,1.5,,,10,0,0,,\n"+
		"plank,trimesh,,18,10.2,-3,,,,,,,,,63,plank.obj\n")
	empty := writeDynamicFile(t, dir, "empty.csv", "id,type,x,y,z\n")
	out := filepath.Join(dir, "out.dyn")

	var stdout bytes.Buffer
	require.NoError(t, run([]string{"dynamic", "-obj", "../../testdata/dungeon.obj", "-headroom", "-1", "-workers", "2",
		"-colliders", pit, "-colliders", bridge, "-colliders", moved, "-colliders", empty, "-o", out, "-json"}, &stdout, &bytes.Buffer{}))
	var got dynamicReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))

	level, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	require.NoError(t, err)
	baked, err := bake.Tiled(context.Background(), level, bake.DefaultSettings(), bake.TiledOptions{})
	require.NoError(t, err)
	bakedMesh, err := baked.NavMesh()
	require.NoError(t, err)
	want, err := figures(bakedMesh)
	require.NoError(t, err)
	assert.Equal(t, want, got.Initial, "without headroom the tiles are bake's")
	assert.Equal(t, 56, got.Tiles)
	assert.Zero(t, got.Headroom)

	require.Len(t, got.StateChanges, 4)
	assert.Equal(t, colliderChanges{Colliders: 2, Added: 1, Refused: 1}, zeroTimes(got.StateChanges[0]))
	assert.Equal(t, colliderChanges{Colliders: 3, Added: 2}, zeroTimes(got.StateChanges[1]))
	assert.Equal(t, colliderChanges{Colliders: 3, Changed: 1}, zeroTimes(got.StateChanges[2]))
	assert.Equal(t, colliderChanges{Removed: 3}, zeroTimes(got.StateChanges[3]))
	for i, c := range got.StateChanges {
		assert.Positive(t, c.TilesRebuilt, "state %d", i+1)
	}
	assert.NotEqual(t, got.Initial.TileHash, got.States[0].TileHash)
	assert.NotEqual(t, got.States[0].TileHash, got.States[1].TileHash)
	assert.Equal(t, got.Initial, got.States[3], "every collider removed")

	// The saved mesh loads with no colliders and the same tiles.
	file, err := os.Open(out)
	require.NoError(t, err)
	defer file.Close()
	loaded, err := dynamic.Load(file, dynamic.Options{})
	require.NoError(t, err)
	assert.Zero(t, loaded.ColliderCount())
	f, err := figures(loaded.NavMesh())
	require.NoError(t, err)
	assert.Equal(t, got.Initial, f)

	stdout.Reset()
	require.NoError(t, run([]string{"dynamic", "-obj", "../../testdata/dungeon.obj", "-colliders", pit}, &stdout, &bytes.Buffer{}))
	text := stdout.String()
	assert.Contains(t, text, "voxels         56 tiles")
	assert.Contains(t, text, "1 added, 0 changed, 0 removed, 1 outside")
}

// zeroTimes returns c without its file name and time.
func zeroTimes(c colliderChanges) colliderChanges {
	c.File, c.UpdateMs, c.TilesRebuilt, c.TilesEmptied = "", 0, 0, 0
	return c
}

func TestDynamicCommandErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no level", []string{"dynamic"}, "want -obj"},
		{"bad tile size", []string{"dynamic", "-obj", "x.obj", "-tile-size", "0"}, "tile size"},
		{"bad workers", []string{"dynamic", "-obj", "x.obj", "-workers", "0"}, "workers"},
		{"extra", []string{"dynamic", "-obj", "x.obj", "more"}, "unexpected arguments"},
		{"missing state", []string{"dynamic", "-obj", "../../testdata/dungeon.obj", "-colliders", filepath.Join(dir, "none.csv")}, "none.csv"},
		{"bad state", []string{"dynamic", "-obj", "../../testdata/dungeon.obj", "-colliders",
			writeDynamicFile(t, dir, "bad.csv", "id,type,x,y,z\na,cone,1,2,3\n")}, "unknown kind \"cone\""},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			err := run(test.args, &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.ErrorContains(t, err, test.want)
		})
	}
}

func TestReadColliderState(t *testing.T) {
	tests := []struct {
		name, csv, want string
	}{
		{"header", "x,y,z\n", `no "id" column`},
		{"number", "id,type,x,y,z\na,sphere,1,q,3\n", `y "q" is not a finite number`},
		{"nan", "id,type,x,y,z,radius\na,sphere,1,2,3,NaN\n", "radius"},
		{"mode", "id,type,mode,x,y,z,radius\na,sphere,dig,1,2,3,1\n", `mode "dig"`},
		{"area", "id,type,x,y,z,radius,area\na,sphere,1,2,3,1,64\n", "area 64"},
		{"shape", "id,type,x,y,z\na,sphere,1,2,3\n", "radius"},
		{"mesh missing", "id,type,x,y,z\na,trimesh,1,2,3\n", "needs a mesh file"},
		{"twice", "id,type,x,y,z,radius\na,sphere,1,2,3,1\na,sphere,1,2,3,1\n", "given twice"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, err := readColliderState(strings.NewReader(test.csv), nil)
			require.Error(t, err)
			assert.ErrorContains(t, err, test.want)
		})
	}
	rows, err := readColliderState(strings.NewReader("id,type,mode,x,y,z,radius,halfheight,yaw,area\nc,capsule,carve,1,2,3,0.5,1,90,7\n"), nil)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, collider.Capsule, rows[0].shape.Kind)
	assert.True(t, rows[0].shape.Carve)
	assert.Equal(t, uint8(7), rows[0].shape.Area)
	assert.InDelta(t, 0.7071, rows[0].pose.Rotation.W, 1e-4)
}

// FuzzReadColliderState checks that any state file parses without a
// panic, and that every row it accepts places.
func FuzzReadColliderState(f *testing.F) {
	f.Add("id,type,mode,x,y,z,hx,hy,hz,radius,halfheight,yaw,pitch,roll,area,mesh\nb,orientedbox,solid,1,2,3,1,1,1,,,30,10,5,63,\n")
	f.Add("id,type,x,y,z,radius\ns,sphere,0,0,0,2\n")
	f.Add("id,type,x,y,z,mesh\nt,trimesh,0,0,0,m.obj\n")
	tri := &collider.Mesh{Vertices: []geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	f.Fuzz(func(t *testing.T, data string) {
		rows, err := readColliderState(strings.NewReader(data), func(string) (*collider.Mesh, error) { return tri, nil })
		if err != nil {
			return
		}
		for _, row := range rows {
			_, err := collider.Place(row.shape, row.pose)
			require.NoError(t, err)
		}
	})
}
