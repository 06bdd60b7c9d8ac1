package plugin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/require"
)

// crossCPUEnv names the file TestCrowdAcrossCPUs records its trace to (when
// the file does not exist) or compares its trace with (when it does).
const crossCPUEnv = "ARCHENAV_CROSSCPU_TRACE"

// TestCrowdAcrossCPUs runs the default crowd (not reference mode) for 600
// ticks on the save harness's scripted level: two agent types on tile
// caches of their own, with the hierarchy planning their paths, obstacles
// that carve, mark an area or only steer the agents spawned, moved,
// changed and removed, runtime links, new targets every 120 ticks. Every
// 50 ticks it hashes what the crowd puts out (each agent's position,
// velocity, mode, target state and polygon, each obstacle's state) and the
// whole state the save harness compares.
//
// The hashes are not pinned here, since the crowd's behaviour changes as
// the library grows: .ci/crossarch.sh records them on amd64 and compares
// the runs on arm64 (qemu), 386, GOAMD64=v3 and WebAssembly with them, so
// the test fails exactly when a CPU changes a bit (docs/determinism.md).
// Without ARCHENAV_CROSSCPU_TRACE it is skipped.
func TestCrowdAcrossCPUs(t *testing.T) {
	path := os.Getenv(crossCPUEnv)
	if path == "" {
		t.Skipf("%s not set: run by .ci/crossarch.sh", crossCPUEnv)
	}
	const agents, workers, ticks, every = 60, 2, 600, 50
	level := bakeHarnessLevel(t, "dungeon")
	script := newHarnessScript(t, level, agents, workers, ticks, 25)
	r := script.start(t)
	var got []string
	var walked float32
	last := r.agentPositions(t)
	events := map[components.EventKind]int{}
	eventHash := fnv.New64a()
	for r.tick < ticks {
		r.step(t)
		for _, ev := range r.plugin.Events(r.world) {
			events[ev.Kind]++
			_, _ = fmt.Fprintf(eventHash, "%d %d %d;", r.tick, ev.Kind, slices.Index(r.agents, ev.Entity))
		}
		now := r.agentPositions(t)
		for i := range now {
			walked += geom.Dist2D(now[i], last[i])
		}
		last = now
		if r.tick%every == 0 {
			got = append(got, fmt.Sprintf("tick %d: outputs %016x events %016x state %016x",
				r.tick, r.outputHash(t), eventHash.Sum64(), r.stateHash(t)))
		}
	}

	// What the run exercised: the agents walk, arrive, obstacles land.
	t.Logf("%d agents walked %.0f m in all; events: %d targets reached, %d obstacles landed, %d link crossings",
		agents, walked, events[components.EventTargetReached], events[components.EventObstacleLanded], events[components.EventLinkCompleted])
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644))
		t.Logf("recorded %d hashes on %s/%s to %s", len(got), runtime.GOARCH, runtime.GOOS, path)
		return
	}
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(want)), "\n")
	require.Len(t, got, len(lines), "hashes in %s", path)
	for i, line := range lines {
		if got[i] != line {
			t.Fatalf("%s/%s differs from the recorded run at the first differing tick:\n want %s\n  got %s", runtime.GOARCH, runtime.GOOS, line, got[i])
		}
	}
	t.Logf("%d hashes equal to the recorded run's on %s/%s", len(got), runtime.GOARCH, runtime.GOOS)
}

// agentPositions returns the agents' positions in spawn order.
func (r *harnessRun) agentPositions(tb testing.TB) []geom.Vec3 {
	tb.Helper()
	out := make([]geom.Vec3, len(r.agents))
	for i, e := range r.agents {
		info, err := r.plugin.State(r.world, e)
		require.NoError(tb, err)
		out[i] = info.Position
	}
	return out
}

// outputHash hashes what the crowd puts out, read through the public API:
// per agent (in spawn order) its position, velocity, mode, target state,
// target position, polygon and type; per obstacle its pose, shape and
// state. A NaN is hashed as one NaN, since its sign is the CPU's.
func (r *harnessRun) outputHash(tb testing.TB) uint64 {
	tb.Helper()
	h := fnv.New64a()
	var buf []byte
	floats := func(fs ...float32) {
		for _, f := range fs {
			if f != f {
				f = float32(math.NaN())
			}
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
		}
	}
	for _, e := range r.agents {
		info, err := r.plugin.State(r.world, e)
		require.NoError(tb, err)
		buf = buf[:0]
		floats(info.Position[:]...)
		floats(info.Velocity[:]...)
		floats(info.TargetPosition[:]...)
		buf = append(buf, byte(info.Mode), byte(info.Target), info.Type)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(info.Poly))
		_, _ = h.Write(buf)
	}
	for _, e := range r.obstacles {
		info, err := r.plugin.Obstacle(r.world, e)
		if err != nil {
			continue // removed
		}
		buf = buf[:0]
		floats(info.Pose.Position[:]...)
		floats(info.Pose.Yaw)
		buf = fmt.Appendf(buf, "%+v", info)
		_, _ = h.Write(buf)
	}
	return h.Sum64()
}

// stateHash combines the save harness's fingerprint of every agent's
// components, the obstacles' and the runtime links'.
func (r *harnessRun) stateHash(tb testing.TB) uint64 {
	tb.Helper()
	agents, obstacles, links := r.fingerprint(tb)
	h := fnv.New64a()
	var buf []byte
	for _, v := range append(agents, obstacles, links) {
		buf = binary.LittleEndian.AppendUint64(buf, v)
	}
	_, _ = h.Write(buf)
	return h.Sum64()
}
