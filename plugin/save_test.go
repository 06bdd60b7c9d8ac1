package plugin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// savedCrowd returns a small harness crowd run for 80 ticks (obstacles in
// the cache, searches and jumps under way) and its save file.
func savedCrowd(tb testing.TB) (*harnessRun, []byte) {
	tb.Helper()
	level := bakeHarnessLevel(tb, "dungeon")
	script := newHarnessScript(tb, level, 40, 1, 200, 11)
	r := script.start(tb)
	r.runTo(tb, 80, nil)
	var file bytes.Buffer
	require.NoError(tb, r.plugin.Save(r.world, &file))
	return r, file.Bytes()
}

// reseal replaces the checksum at the end of file with the right one.
func reseal(file []byte) []byte {
	out := bytes.Clone(file)
	if len(out) >= 4 {
		binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.ChecksumIEEE(out[:len(out)-4]))
	}
	return out
}

// worldState is what a failed load must leave as it was: every
// component's fingerprint, the obstacles', the meshes' snapshots and the
// tick.
type worldState struct {
	agents           []uint64
	obstacles, links uint64
	meshes           []*navmesh.Snapshot
	tick             uint64
}

func stateOf(tb testing.TB, r *harnessRun) worldState {
	tb.Helper()
	agents, obstacles, links := r.fingerprint(tb)
	s := worldState{agents: agents, obstacles: obstacles, links: links, tick: r.plugin.timeStep.Get().Tick}
	for t := range r.plugin.types {
		s.meshes = append(s.meshes, r.plugin.types[t].mesh.Snapshot())
	}
	return s
}

// TestLoadRefusesDamagedFiles: a save file (with runtime links and agents
// at them) cut at any length, or with any bit flipped (sampled, see
// step), is refused (ErrBadSaveFile) and the world stays as it was;
// with the checksum made right again, the decoder itself refuses or reads
// the damage, never panicking.
func TestLoadRefusesDamagedFiles(t *testing.T) {
	r, file := savedCrowd(t)
	r.runTo(t, 95, nil) // the world moved on from the save
	before := stateOf(t, r)
	// Every section in a second; CI's race-free long pass cuts the file
	// at every length (a cut file fails at the checksum, before any
	// section is decoded: some 80 µs a cut), flips a bit in one byte in 13
	// (every bit position, as 13 and 8 are coprime) and reseals one in
	// 131 (most of those load and run a tick). Every byte flipped would
	// take ten minutes, under the race detector hours.
	cutStep, step, resealStep := 397, 397, 397
	if longtest.Enabled() && !longtest.Race {
		cutStep, step, resealStep = 1, 13, 131
	}
	start := time.Now()
	for n := 0; n < len(file); n += cutStep {
		_, err := r.plugin.Load(r.world, bytes.NewReader(file[:n]))
		require.Error(t, err, "cut to %d bytes", n)
		require.True(t, errors.Is(err, ErrBadSaveFile) || errors.Is(err, ErrNotSaveFile), "cut to %d bytes: %v", n, err)
	}
	t.Logf("%d bytes cut at %d lengths in %v", len(file), (len(file)+cutStep-1)/cutStep, time.Since(start))
	start = time.Now()
	damaged := make([]byte, len(file))
	for i := 0; i < len(file); i += step {
		copy(damaged, file)
		damaged[i] ^= 1 << (i % 8)
		_, err := r.plugin.Load(r.world, bytes.NewReader(damaged))
		require.Error(t, err, "bit %d of byte %d flipped", i%8, i)
	}
	assert.Equal(t, before, stateOf(t, r), "the world is as it was")
	t.Logf("a bit flipped in %d bytes in %v", (len(file)+step-1)/step, time.Since(start))

	resealedAccepted := 0
	start = time.Now()
	for i := 8; i < len(file)-4; i += resealStep {
		copy(damaged, file)
		damaged[i] ^= 1 << (i % 8)
		if _, err := r.plugin.Load(r.world, bytes.NewReader(reseal(damaged))); err == nil {
			resealedAccepted++
			require.NoError(t, r.plugin.Step(r.world, 1.0/60)) // the loaded state runs
		}
	}
	t.Logf("%d of %d resealed single-bit changes read as valid states, in %v", resealedAccepted, (len(file)-12)/resealStep, time.Since(start))
}

// TestLoadRefusesOtherFilesAndCrowds: a navmesh file is not a save file; a
// save of another crowd (other agent types) does not fit; an empty
// snapshot and one of another plugin are refused; the world stays as it
// was.
func TestLoadRefusesOtherFilesAndCrowds(t *testing.T) {
	r, file := savedCrowd(t)
	before := stateOf(t, r)

	var meshFile bytes.Buffer
	require.NoError(t, navmesh.Save(&meshFile, r.plugin.types[0].mesh))
	_, err := r.plugin.Load(r.world, &meshFile)
	require.ErrorIs(t, err, ErrNotSaveFile)

	other := newCrowd(t, loadDungeon(t), 5, 1, Config{})
	_, err = other.plugin.Load(other.world, bytes.NewReader(file))
	require.ErrorIs(t, err, ErrSnapshotMismatch)
	var otherFile bytes.Buffer
	require.NoError(t, other.plugin.Save(other.world, &otherFile))
	_, err = r.plugin.Load(r.world, &otherFile)
	require.ErrorIs(t, err, ErrSnapshotMismatch)

	var empty Snapshot
	_, err = r.plugin.Restore(r.world, &empty)
	require.ErrorIs(t, err, ErrSnapshotMismatch)
	var theirs Snapshot
	require.NoError(t, other.plugin.Snapshot(other.world, &theirs))
	_, err = r.plugin.Restore(r.world, &theirs)
	require.ErrorIs(t, err, ErrSnapshotMismatch)
	assert.Equal(t, before, stateOf(t, r))
}

// FuzzLoad feeds save files with arbitrary changes (their checksum made
// right, so that the decoder sees them) to Load: it must not panic, and a
// state it accepts must run. The seed is a small crowd on the gap level
// (an off-mesh connection) with a jump and a search under way, and the
// same with a runtime link, an agent held on it and one queued.
func FuzzLoad(f *testing.F) {
	p, err := New(Config{Mesh: gapLevel(f), MaxAgents: 8})
	require.NoError(f, err)
	world := ecs.NewWorld()
	require.NoError(f, p.Install(&world))
	for i, x := range []float32{2, 4, 17} {
		e, err := p.Spawn(&world, geom.Vec3{x, 0, 5}, components.DefaultAgentParams())
		require.NoError(f, err)
		require.NoError(f, p.RequestMoveTarget(&world, e, geom.Vec3{19 - float32(i), 0, 5}))
	}
	for range 40 {
		require.NoError(f, p.Step(&world, 1.0/60))
	}
	var file bytes.Buffer
	require.NoError(f, p.Save(&world, &file))
	f.Add(file.Bytes())

	// A second seed with a runtime link: a manual one, one agent at a
	// time, cheap enough to be taken; one agent held on it, one queued.
	_, err = p.SpawnLink(&world, components.Link{
		Start: geom.Vec3{9, 0, 8}, End: geom.Vec3{15, 0, 8}, Radius: 0.6, Bidirectional: true, Cost: 0.1,
		Traversal: components.LinkManual, Capacity: 1,
	})
	require.NoError(f, err)
	for _, z := range []float32{7, 8, 9} {
		e, err := p.Spawn(&world, geom.Vec3{6, 0, z}, components.DefaultAgentParams())
		require.NoError(f, err)
		require.NoError(f, p.RequestMoveTarget(&world, e, geom.Vec3{20, 0, 8}))
	}
	var held, queued int
	for tick := 0; tick < 600 && (held == 0 || queued == 0); tick++ {
		require.NoError(f, p.Step(&world, 1.0/60))
		held, queued = 0, 0
		for _, ride := range p.linkAPI.traffic.Get().Rides {
			switch ride.Phase {
			case components.LinkHeld:
				held++
			case components.LinkQueued:
				queued++
			}
		}
	}
	require.Equal(f, [2]int{1, 1}, [2]int{held, queued}, "the seed has an agent held on the link and one queued")
	file.Reset()
	require.NoError(f, p.Save(&world, &file))
	f.Add(file.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := p.Load(&world, bytes.NewReader(reseal(data))); err == nil {
			require.NoError(t, p.Step(&world, 1.0/60))
		}
	})
}

// TestDynamicGeometryIsRefused: a crowd on a dynamic navmesh, or a world
// holding collider entities, cannot be saved, snapshotted, loaded into or
// restored: each call fails with ErrDynamicGeometryNotSaved, writes
// nothing and leaves the world as it was, instead of losing the colliders.
func TestDynamicGeometryIsRefused(t *testing.T) {
	_, file := savedCrowd(t)
	spawnOne := func(tb testing.TB, p *Plugin, world *ecs.World) ecs.Entity {
		e, err := p.Spawn(world, geom.Vec3{11, 10.2, 0}, components.DefaultAgentParams())
		require.NoError(tb, err)
		return e
	}
	crates := func(tb testing.TB, p *Plugin, world *ecs.World) {
		_, err := p.SpawnCollider(world, components.ColliderPose{Position: geom.Vec3{18, 10.2, 0.65}},
			components.NewCollider(collider.NewBox(geom.Vec3{0.5, 0.5, 0.5})))
		require.NoError(tb, err)
	}
	for _, tc := range []struct {
		name  string
		want  error
		setup func(tb testing.TB) (*Plugin, *ecs.World, ecs.Entity)
	}{
		{"dynamic mesh, no colliders", ErrDynamicGeometryNotSaved, func(tb testing.TB) (*Plugin, *ecs.World, ecs.Entity) {
			p, err := New(Config{DynamicMesh: newDungeonDynamic(tb), MaxAgents: 8})
			require.NoError(tb, err)
			world := ecs.NewWorld()
			require.NoError(tb, p.Install(&world))
			return p, &world, spawnOne(tb, p, &world)
		}},
		{"dynamic mesh with a collider", ErrDynamicGeometryNotSaved, func(tb testing.TB) (*Plugin, *ecs.World, ecs.Entity) {
			p, err := New(Config{DynamicMesh: newDungeonDynamic(tb), MaxAgents: 8})
			require.NoError(tb, err)
			world := ecs.NewWorld()
			require.NoError(tb, p.Install(&world))
			crates(tb, p, &world)
			require.NoError(tb, p.Step(&world, 1.0/60))
			return p, &world, spawnOne(tb, p, &world)
		}},
		{"collider entities without a dynamic mesh", ErrDynamicGeometryNotSaved, func(tb testing.TB) (*Plugin, *ecs.World, ecs.Entity) {
			r, _ := savedCrowd(tb)
			colliders := generic.NewMap3[components.Collider, components.ColliderPose, components.ColliderState](r.world)
			colliders.NewWith(&components.Collider{}, &components.ColliderPose{}, &components.ColliderState{})
			require.NoError(tb, r.plugin.Step(r.world, 1.0/60))
			return r.plugin, r.world, r.agents[0]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, world, agent := tc.setup(t)
			before, err := p.State(world, agent)
			require.NoError(t, err)
			tick := p.timeStep.Get().Tick

			var out bytes.Buffer
			err = p.Save(world, &out)
			require.ErrorIs(t, err, tc.want)
			assert.Zero(t, out.Len(), "nothing written")
			var s Snapshot
			require.ErrorIs(t, p.Snapshot(world, &s), tc.want)
			_, err = p.Restore(world, &s)
			require.ErrorIs(t, err, tc.want)
			_, err = p.Load(world, bytes.NewReader(file))
			require.ErrorIs(t, err, tc.want)

			after, err := p.State(world, agent)
			require.NoError(t, err)
			assert.Equal(t, before, after)
			assert.Equal(t, tick, p.timeStep.Get().Tick)
		})
	}
}

// TestEntityAtRefusesIndexesPastTheEnd: a saved index of 2^31 or more is
// negative as a 32-bit int, passed a signed check and panicked on 386.
func TestEntityAtRefusesIndexesPastTheEnd(t *testing.T) {
	world := ecs.NewWorld()
	list := []ecs.Entity{world.NewEntity(), world.NewEntity()}
	at := entityAt(list)
	tests := []struct {
		index uint32
		want  ecs.Entity
		ok    bool
	}{
		{0, list[0], true},
		{1, list[1], true},
		{2, ecs.Entity{}, false},
		{1 << 31, ecs.Entity{}, false},
		{0xffffffff, ecs.Entity{}, false},
	}
	for _, tt := range tests {
		got, ok := at(tt.index)
		assert.Equal(t, tt.ok, ok, "%#x", tt.index)
		assert.Equal(t, tt.want, got, "%#x", tt.index)
	}
}
