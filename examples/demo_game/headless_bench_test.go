package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkFrame times one crowd tick and one GIF frame of the default
// demo: the background copied, 40 agents with paths and targets drawn, the
// caption, and the frame mapped to the palette and diffed against the
// previous one; with the two agent types (the default) and with the small
// agents alone (-large-radius 0), in one run.
func BenchmarkFrame(b *testing.B) {
	for _, bench := range []struct {
		name string
		args []string
	}{
		{"two types", nil},
		{"one type", []string{"-large-radius", "0"}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			o, err := parseOptions(bench.args, &bytes.Buffer{})
			require.NoError(b, err)
			d, err := setup(o)
			require.NoError(b, err)
			width, height := d.autoSize(autoLongSide)
			rec, err := newRecorder(d, width, height)
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				require.NoError(b, d.crowd.Step(1.0/tickRate))
				require.NoError(b, rec.frame(i))
			}
		})
	}
}
