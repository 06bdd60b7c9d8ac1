package plugin

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed save files: a file of every format version must load in
// every later version. testdata/save/v1_gap.anavsave was written by
// version 1 (TestWriteSaveFixtures with ARCHENAV_WRITE_SAVES=1); its
// .json holds what the crowd was when saved.
const (
	saveFixture     = "testdata/save/v1_gap.anavsave"
	saveFixtureJSON = "testdata/save/v1_gap.json"
)

// saveFixtureFacts is what the fixture's crowd was when saved.
type saveFixtureFacts struct {
	Tick      uint64
	Positions []geom.Vec3 // per agent, in spawn order
	Modes     []int       // components.AgentMode
	Targets   []int       // components.TargetState
	Obstacles int
}

// gapCrowd is the crowd of the fixture: the gap level (an off-mesh
// connection), five agents, one of them crossing, and an avoided obstacle.
func gapCrowd(tb testing.TB) (*Plugin, *ecs.World) {
	tb.Helper()
	p, err := New(Config{Mesh: gapLevel(tb), MaxAgents: 8})
	require.NoError(tb, err)
	world := ecs.NewWorld()
	require.NoError(tb, p.Install(&world))
	return p, &world
}

// TestWriteSaveFixtures writes the committed save file of this format
// version (run with ARCHENAV_WRITE_SAVES=1 when the version changes; keep
// the older files).
func TestWriteSaveFixtures(t *testing.T) {
	if os.Getenv("ARCHENAV_WRITE_SAVES") != "1" {
		t.Skip("set ARCHENAV_WRITE_SAVES=1 to write the save fixtures")
	}
	p, world := gapCrowd(t)
	var agents []ecs.Entity
	for i, x := range []float32{2, 4, 6, 17, 18} {
		e, err := p.Spawn(world, geom.Vec3{x, 0, 3 + float32(i)}, components.DefaultAgentParams())
		require.NoError(t, err)
		require.NoError(t, p.RequestMoveTarget(world, e, geom.Vec3{22 - x, 0, 5}))
		agents = append(agents, e)
	}
	_, err := p.SpawnObstacle(world, components.ObstaclePose{Position: geom.Vec3{5, 0, 8}}, components.CylinderObstacle(0.5, 2))
	require.NoError(t, err)
	facts := saveFixtureFacts{Obstacles: 1}
	for range 300 {
		require.NoError(t, p.Step(world, 1.0/60))
		offMesh := false
		for _, e := range agents {
			info, err := p.State(world, e)
			require.NoError(t, err)
			offMesh = offMesh || info.Mode == components.AgentOffMesh
		}
		if offMesh {
			break
		}
	}
	facts.Tick = p.timeStep.Get().Tick
	for _, e := range agents {
		info, err := p.State(world, e)
		require.NoError(t, err)
		facts.Positions = append(facts.Positions, info.Position)
		facts.Modes = append(facts.Modes, int(info.Mode))
		facts.Targets = append(facts.Targets, int(info.Target))
	}
	require.Contains(t, facts.Modes, int(components.AgentOffMesh))
	var file bytes.Buffer
	require.NoError(t, p.Save(world, &file))
	require.NoError(t, os.MkdirAll("testdata/save", 0o755))
	require.NoError(t, os.WriteFile(saveFixture, file.Bytes(), 0o644))
	js, err := json.MarshalIndent(facts, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(saveFixtureJSON, append(js, '\n'), 0o644))
}

// TestLoadsVersion1Files: the save file version 1 wrote loads into the
// crowd made as it was made, with its agents where they were (one of them
// crossing the gap), and runs on: the crossing agent lands.
func TestLoadsVersion1Files(t *testing.T) {
	file, err := os.ReadFile(saveFixture)
	require.NoError(t, err)
	js, err := os.ReadFile(saveFixtureJSON)
	require.NoError(t, err)
	var facts saveFixtureFacts
	require.NoError(t, json.Unmarshal(js, &facts))

	p, world := gapCrowd(t)
	m, err := p.Load(world, bytes.NewReader(file))
	require.NoError(t, err)
	require.Equal(t, len(facts.Positions)+facts.Obstacles, m.Len())
	assert.Equal(t, facts.Tick, p.timeStep.Get().Tick)
	for i := range facts.Positions {
		_, e := m.At(i)
		info, err := p.State(world, e)
		require.NoError(t, err)
		assert.Equal(t, facts.Positions[i], info.Position, "agent %d", i)
		assert.Equal(t, facts.Modes[i], int(info.Mode), "agent %d", i)
		assert.Equal(t, facts.Targets[i], int(info.Target), "agent %d", i)
	}
	// The crossing agent lands, and the crowd walks on.
	crossing := map[ecs.Entity]bool{}
	for i, mode := range facts.Modes {
		if mode == int(components.AgentOffMesh) {
			_, e := m.At(i)
			crossing[e] = true
		}
	}
	landed := 0
	for range 600 {
		require.NoError(t, p.Step(world, 1.0/60))
		for _, ev := range p.Events(world) {
			if ev.Kind == components.EventOffMeshFinished && crossing[ev.Entity] {
				landed++
				delete(crossing, ev.Entity)
			}
		}
	}
	assert.Positive(t, landed)
	assert.Empty(t, crossing, "every crossing agent lands")
}
