package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCrowdbench(t *testing.T) {
	mean, reached, err := parseCrowdbench([]byte("agents 500 ticks 600 cpu 3.700 mean 3.712 p50 3.600 p99 4.800 max 6.100 reached 56\n"))
	require.NoError(t, err)
	assert.Equal(t, 3.712, mean)
	assert.Equal(t, 56, reached)
	_, _, err = parseCrowdbench([]byte("init failed"))
	assert.Error(t, err)
}

func TestScenarioToTrips(t *testing.T) {
	dir := t.TempDir()
	scenario, trips := filepath.Join(dir, "s.csv"), filepath.Join(dir, "t.txt")
	require.NoError(t, os.WriteFile(scenario, []byte("sx,sy,sz,tx,ty,tz\n1,2.5,-3,4,5,6e-05\n-7,8,9,10,11,12\n"), 0o644))
	require.NoError(t, scenarioToTrips(scenario, trips))
	text, err := os.ReadFile(trips)
	require.NoError(t, err)
	assert.Equal(t, "1 2.5 -3 4 5 6e-05\n-7 8 9 10 11 12\n", string(text))

	require.NoError(t, os.WriteFile(scenario, []byte("a,b\n1,2\n"), 0o644))
	assert.Error(t, scenarioToTrips(scenario, trips))
}
