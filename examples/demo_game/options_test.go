package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseOptionsDefaults(t *testing.T) {
	o, err := parseOptions(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "", o.level)
	assert.Equal(t, defaultAgents, o.agents)
	assert.Equal(t, 10.0, o.seconds)
	assert.Equal(t, "out", o.out)
	assert.Zero(t, o.width, "auto size")
	assert.Equal(t, uint64(1), o.seed)
	assert.GreaterOrEqual(t, o.workers, 1)
	assert.Equal(t, defaultTileSize, o.tileSize)
	assert.True(t, o.obstacles, "crates and a door by default")
}

func TestParseOptions(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr bool
		check   func(t *testing.T, o *options)
	}{
		{args: []string{"-size", "320x200", "-agents", "7", "-seconds", "2.5", "-seed", "9", "-workers", "2", "-out", "x", "-level", "a.obj"},
			check: func(t *testing.T, o *options) {
				assert.Equal(t, [2]int{320, 200}, [2]int{o.width, o.height})
				assert.Equal(t, 7, o.agents)
				assert.Equal(t, 2.5, o.seconds)
				assert.Equal(t, uint64(9), o.seed)
				assert.Equal(t, 2, o.workers)
				assert.Equal(t, "x", o.out)
				assert.Equal(t, "a.obj", o.level)
			}},
		{args: []string{"-size", "640X480"}, check: func(t *testing.T, o *options) { assert.Equal(t, 640, o.width) }},
		{args: []string{"-size", "640"}, wantErr: true},
		{args: []string{"-size", "axb"}, wantErr: true},
		{args: []string{"-size", "10x10"}, wantErr: true},
		{args: []string{"-size", "99999x100"}, wantErr: true},
		{args: []string{"-agents", "-1"}, wantErr: true},
		{args: []string{"-agents", "1000000"}, wantErr: true},
		{args: []string{"-seconds", "0"}, wantErr: true},
		{args: []string{"-seconds", "NaN"}, wantErr: true},
		{args: []string{"-workers", "0"}, wantErr: true},
		{args: []string{"-tile-size", "-1"}, wantErr: true},
		{args: []string{"-tile-size", "0"}, check: func(t *testing.T, o *options) { assert.Zero(t, o.tileSize) }},
		{args: []string{"stray"}, wantErr: true},
		{args: []string{"-nope"}, wantErr: true},
	}
	for _, tt := range tests {
		o, err := parseOptions(tt.args, io.Discard)
		if tt.wantErr {
			assert.Error(t, err, "%q", tt.args)
			continue
		}
		require.NoError(t, err, "%q", tt.args)
		tt.check(t, o)
	}
}

func FuzzParseSize(f *testing.F) {
	for _, seed := range []string{"640x480", "auto", "64X4096", "x", "1x", "-5x10", "0x0", " 640x480", "1e3x2"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		width, height, err := parseSize(s)
		if err != nil {
			return
		}
		if width == 0 && height == 0 {
			require.Equal(t, "auto", s)
			return
		}
		require.True(t, width >= minImageSide && width <= maxImageSide, "width %d from %q", width, s)
		require.True(t, height >= minImageSide && height <= maxImageSide, "height %d from %q", height, s)
	})
}
