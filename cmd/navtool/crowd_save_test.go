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
	common := []string{"crowd", "-tset", crowdTestTSET, "-agents", "60", "-seed", "3", "-ticks", "330", "-workers", "2",
		"-obstacles", crowdTestObstacles, "-obstacles-at", "20", "-obstacles", crowdTestMovedObstacles, "-obstacles-at", "200"}
	save := assertRestoredTail(t, common, 119)

	// Bad combinations are refused.
	var out bytes.Buffer
	err := run(append(common, "-save-at", "10"), &out, &bytes.Buffer{})
	assert.ErrorContains(t, err, "together")
	err = run(append(common, "-save-at", "400", "-save", save), &out, &bytes.Buffer{})
	assert.ErrorContains(t, err, "-save-at 400")
	other := []string{"crowd", "-navmesh", crowdTestMesh, "-agents", "60", "-ticks", "330", "-restore", save}
	assert.Error(t, run(other, &out, &bytes.Buffer{}), "a save of another level")
}

// assertRestoredTail runs navtool crowd with args uninterrupted (saving
// after tick at) and again restored from that save, and checks that the
// two trace the ticks after at byte for byte alike. It returns the save
// file.
func assertRestoredTail(t *testing.T, args []string, at int) string {
	t.Helper()
	dir := t.TempDir()
	save := filepath.Join(dir, "crowd.sav")
	whole, restored := filepath.Join(dir, "whole.trace"), filepath.Join(dir, "restored.trace")
	var out bytes.Buffer
	tick := strconv.Itoa(at)
	require.NoError(t, run(append(args, "-trace", whole, "-save-at", tick, "-save", save), &out, &bytes.Buffer{}))
	require.NoError(t, run(append(args, "-trace", restored, "-restore", save), &out, &bytes.Buffer{}))

	wholeLines, err := os.ReadFile(whole)
	require.NoError(t, err)
	restoredLines, err := os.ReadFile(restored)
	require.NoError(t, err)
	var after []string
	for _, line := range strings.SplitAfter(string(wholeLines), "\n") {
		if tick, _, ok := strings.Cut(line, " "); ok {
			if n, err := strconv.Atoi(tick); err == nil && n > at {
				after = append(after, line)
			}
		}
	}
	require.NotEmpty(t, after)
	assert.Equal(t, strings.Join(after, ""), string(restoredLines), "the ticks after %d", at)
	return save
}

// TestCrowdSaveRestoreTraceWithLinks: with runtime links (-links) the
// restored run traces the ticks after the save as the uninterrupted one,
// saved at ticks with agents crossing links; the links shorten the
// crowd's trips, so they are taken.
func TestCrowdSaveRestoreTraceWithLinks(t *testing.T) {
	rows := readCSV(t, "../../testdata/query_dungeon.csv")
	c := columns(rows[0])
	var links strings.Builder
	links.WriteString("sx,sy,sz,ex,ey,ez,radius,bidirectional,width,area,flags,cost\n")
	for _, row := range rows[1:13] {
		if row[c["start_found"]] != "1" || row[c["end_found"]] != "1" {
			continue
		}
		ends := strings.Join([]string{row[c["sx"]], row[c["sy"]], row[c["sz"]], row[c["ex"]], row[c["ey"]], row[c["ez"]]}, ",")
		links.WriteString(ends + ",1,1,0,0,1,0.05\n")
	}
	linksPath := filepath.Join(t.TempDir(), "links.csv")
	require.NoError(t, os.WriteFile(linksPath, []byte(links.String()), 0o644))
	common := []string{"crowd", "-tset", crowdTestTSET, "-agents", "60", "-seed", "5", "-ticks", "330", "-workers", "2",
		"-links", linksPath, "-obstacles", crowdTestObstacles, "-obstacles-at", "20", "-obstacles", crowdTestMovedObstacles, "-obstacles-at", "200"}
	for _, at := range []int{90, 211} {
		assertRestoredTail(t, common, at)
	}
}
