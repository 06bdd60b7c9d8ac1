//go:build (amd64 && !amd64.v3) || 386 || wasm

package detmath

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMatchesPackageMath: where the compiler does not fuse multiply-adds
// (amd64 without FMA, 386, WebAssembly) package math rounds every operation,
// so each function must give its bits exactly on every input of the golden
// hashes (Sin and Cos below 2^29: beyond, package math reduces otherwise).
func TestMatchesPackageMath(t *testing.T) {
	for _, f := range functions {
		if _, huge := mathGolden[f.name]; huge {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			f.inputs(func(x, y float64) {
				ours, theirs := f.ours(x, y), f.theirs(x, y)
				if math.IsNaN(theirs) {
					require.True(t, math.IsNaN(ours), "%s(%v, %v)", f.name, x, y)
					return
				}
				require.Equal(t, math.Float64bits(theirs), math.Float64bits(ours), "%s(%v, %v)", f.name, x, y)
			})
		})
	}
}
