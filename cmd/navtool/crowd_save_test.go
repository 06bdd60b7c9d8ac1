package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCrowdSaveRestoreTrace: a run saved after tick 119 and a run with the
// same flags restored from that file trace the ticks after 119 the same,
// byte for byte, as the uninterrupted run; obstacle states land before and
// after the save, on 2 workers.
func TestCrowdSaveRestoreTrace(t *testing.T) {
	dir := t.TempDir()
	common := []string{"crowd", "-tset", crowdTestTSET, "-agents", "60", "-seed", "3", "-ticks", "330", "-workers", "2",
		"-obstacles", crowdTestObstacles, "-obstacles-at", "20", "-obstacles", crowdTestMovedObstacles, "-obstacles-at", "200"}
	save := filepath.Join(dir, "crowd.sav")
	whole, restored := filepath.Join(dir, "whole.trace"), filepath.Join(dir, "restored.trace")
	var out bytes.Buffer
	require.NoError(t, run(append(common, "-trace", whole, "-save-at", "119", "-save", save), &out, &bytes.Buffer{}))
	require.NoError(t, run(append(common, "-trace", restored, "-restore", save), &out, &bytes.Buffer{}))

	wholeLines, err := os.ReadFile(whole)
	require.NoError(t, err)
	restoredLines, err := os.ReadFile(restored)
	require.NoError(t, err)
	var after []string
	for _, line := range strings.SplitAfter(string(wholeLines), "\n") {
		if tick, _, ok := strings.Cut(line, " "); ok {
			if n, err := strconv.Atoi(tick); err == nil && n > 119 {
				after = append(after, line)
			}
		}
	}
	require.NotEmpty(t, after)
	assert.Equal(t, strings.Join(after, ""), string(restoredLines))

	// Bad combinations are refused.
	err = run(append(common, "-save-at", "10"), &out, &bytes.Buffer{})
	assert.ErrorContains(t, err, "together")
	err = run(append(common, "-save-at", "400", "-save", save), &out, &bytes.Buffer{})
	assert.ErrorContains(t, err, "-save-at 400")
	other := []string{"crowd", "-navmesh", crowdTestMesh, "-agents", "60", "-ticks", "330", "-restore", save}
	assert.Error(t, run(other, &out, &bytes.Buffer{}), "a save of another level")
}
