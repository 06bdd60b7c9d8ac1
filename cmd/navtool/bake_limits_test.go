package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeOBJ writes a level of axis-aligned 20 × 20 floors, one per entry of
// floors (x, y, z of its corner), and returns its path.
func writeOBJ(t *testing.T, floors ...[3]float32) string {
	t.Helper()
	var b strings.Builder
	for i, f := range floors {
		x, y, z := f[0], f[1], f[2]
		for _, c := range [][2]float32{{0, 0}, {0, 20}, {20, 20}, {20, 0}} {
			b.WriteString("v " + ftoa(x+c[0]) + " " + ftoa(y) + " " + ftoa(z+c[1]) + "\n")
		}
		n := 4*i + 1
		b.WriteString("f " + itoa(n) + " " + itoa(n+1) + " " + itoa(n+2) + "\n")
		b.WriteString("f " + itoa(n) + " " + itoa(n+2) + " " + itoa(n+3) + "\n")
	}
	path := filepath.Join(t.TempDir(), "level.obj")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestBakeReportsSpanHeightClamp: the JSON report's warnings and the text
// summary say that a floor above the span height limit was clamped.
func TestBakeReportsSpanHeightClamp(t *testing.T) {
	level := writeOBJ(t, [3]float32{0, 0, 0}, [3]float32{30, 2000, 0})
	report := runBakeJSON(t, level)
	warnings, ok := report["warnings"].([]any)
	require.True(t, ok, "warnings: %v", report["warnings"])
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "clamped")
	assert.Contains(t, warnings[0], "8191 cells")

	report = runBakeJSON(t, "-tile-size", "32", level)
	require.NotEmpty(t, report["warnings"])
	assert.Contains(t, report["warnings"].([]any)[0], "clamped")
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

func itoa(i int) string { return strconv.Itoa(i) }
