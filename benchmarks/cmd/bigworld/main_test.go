package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWritesTheLevel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small.obj")
	require.NoError(t, run([]string{"-small", "-o", path}, nil))
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := bigworld.Small().OBJ()
	require.NoError(t, err)
	assert.Equal(t, want, file)

	var out bytes.Buffer
	require.NoError(t, run([]string{"-small", "-size", "100", "-boxes", "3", "-seed", "9"}, &out))
	g, err := bake.ReadOBJ(&out)
	require.NoError(t, err)
	assert.Len(t, g.Triangles, 2*20*20+10*3)
}

func TestBadArguments(t *testing.T) {
	assert.Error(t, run([]string{"-size", "-3", "-small", "-boxes", "2", "-o", filepath.Join(t.TempDir(), "x.obj")}, nil))
	assert.Error(t, run([]string{"extra"}, nil))
	assert.Error(t, run([]string{"-nope"}, nil))
}
