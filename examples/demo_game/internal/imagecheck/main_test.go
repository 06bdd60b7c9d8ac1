package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writePNG(t *testing.T, img image.Image) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shot.png")
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func TestCheck(t *testing.T) {
	blank := image.NewRGBA(image.Rect(0, 0, 100, 100))
	busy := image.NewRGBA(image.Rect(0, 0, 100, 100))
	for y := 0; y < 100; y++ {
		for x := 0; x < 100; x++ {
			busy.SetRGBA(x, y, color.RGBA{uint8(x / 10 * 20), uint8(y / 10 * 20), 0, 255})
		}
	}
	tests := []struct {
		name    string
		img     image.Image
		wantErr string
	}{
		{"blank", blank, "blank"},
		{"busy", busy, ""},
		{"too small", image.NewRGBA(image.Rect(0, 0, 10, 10)), "want at least 64x64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run([]string{writePNG(t, tt.img)}, &out, &errOut)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Contains(t, out.String(), "100x100, 100 colors")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestRunNeedsOneReadablePNG(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Error(t, run(nil, &out, &errOut))
	assert.Error(t, run([]string{filepath.Join(t.TempDir(), "missing.png")}, &out, &errOut))
	notPNG := filepath.Join(t.TempDir(), "x.png")
	require.NoError(t, os.WriteFile(notPNG, []byte("hello"), 0o644))
	assert.Error(t, run([]string{notPNG}, &out, &errOut))
}
