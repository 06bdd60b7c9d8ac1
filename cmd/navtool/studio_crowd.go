package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
)

// studioTickRate is the crowd's ticks per second while it plays.
const studioTickRate = 30

// maxStudioTick is the longest tick the play loop accepts: a slower one
// pauses the crowd, so that a machine that cannot keep up is not buried.
const maxStudioTick = time.Second

// studioCrowd is the crowd the page plays: the arche plugin on a world of
// its own, over the studio's navmesh (and tile cache, whose obstacles then
// carve). Its methods run with studio.mu held.
type studioCrowd struct {
	plugin    *plugin.Plugin
	world     ecs.World
	agents    []ecs.Entity
	obstacles []ecs.Entity
	target    *geom.Vec3
	tick      int
	lastTick  time.Duration
	playing   bool
	carving   bool
	// meshVersion is the navmesh snapshot the page's layers show.
	meshVersion uint64

	stopOnce sync.Once
	stop     chan struct{}
}

// studioCrowdRequest is the body of POST /api/crowd.
type studioCrowdRequest struct {
	// Op is spawn, scatter, target, play, pause, step, clear,
	// obstacle-add, obstacle-move or obstacle-remove.
	Op string `json:"op"`
	// Pos is the clicked point of spawn, target and the obstacle ops.
	Pos *[3]float32 `json:"pos"`
	// Count is the number of agents scatter spawns.
	Count int `json:"count"`
	// ID is the obstacle of obstacle-move and obstacle-remove (its index in
	// the frame's list).
	ID int `json:"id"`
}

// studioFrame is one crowd frame as the page draws it.
type studioFrame struct {
	Tick      int     `json:"tick"`
	Playing   bool    `json:"playing"`
	MsPerTick float64 `json:"msPerTick"`
	// Agents hold x, y, z, velocity x, velocity z, radius and the target
	// state (components.TargetState) of each agent.
	Agents    [][7]float32      `json:"agents"`
	Obstacles []studioObstacle  `json:"obstacles"`
	Target    *[3]float32       `json:"target"`
	Reached   int               `json:"reached"`
	Stages    map[string]string `json:"stages,omitempty"`
}

// studioObstacle is one obstacle entity in a frame.
type studioObstacle struct {
	Pos    [3]float32 `json:"pos"`
	Radius float32    `json:"radius"`
	Height float32    `json:"height"`
	// Carving tells a carving obstacle from an avoided one, Landed whether
	// its hole is in the navmesh.
	Carving bool `json:"carving"`
	Landed  bool `json:"landed"`
}

// newStudioCrowd installs a crowd on the studio's navmesh (s.mu held).
func (s *studio) newStudioCrowd() (*studioCrowd, error) {
	config := plugin.Config{
		Mesh:      s.mesh,
		TileCache: s.cache,
		MaxAgents: s.limits.maxAgents,
		Workers:   1,
		Filters:   []query.Filter{*crowdFilter()},
	}
	p, err := plugin.New(config)
	if err != nil {
		return nil, err
	}
	c := &studioCrowd{plugin: p, world: ecs.NewWorld(), carving: s.cache != nil, stop: make(chan struct{})}
	if err := p.Install(&c.world); err != nil {
		return nil, err
	}
	c.meshVersion = s.mesh.Snapshot().Version()
	return c, nil
}

// close stops the play loop and the crowd's workers.
func (c *studioCrowd) close() {
	c.stopOnce.Do(func() {
		close(c.stop)
		c.plugin.Schedule().Finalize(&c.world)
	})
}

// crowdDo runs one request on the crowd and returns the frame after it.
func (s *studio) crowdDo(req studioCrowdRequest) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the studio is closing")
	}
	if req.Op == "clear" {
		if s.crowd != nil {
			go s.crowd.close()
			s.crowd = nil
		}
		frame := []byte(`{"tick":0,"playing":false,"agents":[],"obstacles":[]}`)
		s.events.publish("frame", frame)
		return frame, nil
	}
	if s.crowd == nil {
		c, err := s.newStudioCrowd()
		if err != nil {
			return nil, err
		}
		s.crowd = c
	}
	c := s.crowd
	pos := func() (geom.Vec3, error) {
		if req.Pos == nil {
			return geom.Vec3{}, fmt.Errorf("%s needs a position", req.Op)
		}
		p := geom.Vec3(*req.Pos)
		if !geom.IsFinite(p) {
			return geom.Vec3{}, fmt.Errorf("position %v is not finite", p)
		}
		return p, nil
	}
	switch req.Op {
	case "spawn":
		p, err := pos()
		if err != nil {
			return nil, err
		}
		if err := c.spawn(p); err != nil {
			return nil, err
		}
	case "scatter":
		if req.Count < 1 || len(c.agents)+req.Count > s.limits.maxAgents {
			return nil, fmt.Errorf("scatter %d agents: want 1..%d more (navtool studio -max-agents)", req.Count, s.limits.maxAgents-len(c.agents))
		}
		if err := c.scatter(s, req.Count); err != nil {
			return nil, err
		}
	case "target":
		p, err := pos()
		if err != nil {
			return nil, err
		}
		if err := c.setTarget(p); err != nil {
			return nil, err
		}
	case "play":
		if !c.playing {
			c.playing = true
			go s.playLoop(c)
		}
	case "pause":
		c.playing = false
	case "step":
		c.playing = false
		if err := s.stepCrowd(c); err != nil {
			return nil, err
		}
	case "obstacle-add":
		p, err := pos()
		if err != nil {
			return nil, err
		}
		if len(c.obstacles) >= s.limits.maxObstacles {
			return nil, fmt.Errorf("at most %d obstacles", s.limits.maxObstacles)
		}
		shape := components.CylinderObstacle(1, 2)
		if c.carving {
			shape = shape.Carving()
		}
		e, err := c.plugin.SpawnObstacle(&c.world, components.ObstaclePose{Position: p}, shape)
		if err != nil {
			return nil, err
		}
		c.obstacles = append(c.obstacles, e)
	case "obstacle-move", "obstacle-remove":
		if req.ID < 0 || req.ID >= len(c.obstacles) {
			return nil, fmt.Errorf("no obstacle %d", req.ID)
		}
		if req.Op == "obstacle-remove" {
			if err := c.plugin.RemoveObstacle(&c.world, c.obstacles[req.ID]); err != nil {
				return nil, err
			}
			c.obstacles = append(c.obstacles[:req.ID], c.obstacles[req.ID+1:]...)
			break
		}
		p, err := pos()
		if err != nil {
			return nil, err
		}
		if err := c.plugin.SetObstaclePose(&c.world, c.obstacles[req.ID], components.ObstaclePose{Position: p}); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown crowd op %q", req.Op)
	}
	frame, err := c.frame()
	if err != nil {
		return nil, err
	}
	s.events.publish("frame", frame)
	return frame, nil
}

// spawn adds an agent at p, sent to the crowd's target if it has one.
func (c *studioCrowd) spawn(p geom.Vec3) error {
	e, err := c.plugin.Spawn(&c.world, p, components.DefaultAgentParams())
	if err != nil {
		return err
	}
	c.agents = append(c.agents, e)
	if c.target != nil {
		if err := c.plugin.RequestMoveTarget(&c.world, e, *c.target); err != nil {
			return err
		}
	}
	return nil
}

// scatter spawns n agents at random points of the navmesh's largest
// connected part, each with a random target there.
func (c *studioCrowd) scatter(s *studio, n int) error {
	filter := crowdFilter()
	sampler, err := query.LargestComponentSampler(s.mesh.Snapshot(), filter)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(len(c.agents)+1), 0x5eed))
	random := func() float32 { return rng.Float32() }
	for range n {
		start, err := sampler.RandomPoint(random)
		if err != nil {
			return err
		}
		goal, err := sampler.RandomPoint(random)
		if err != nil {
			return err
		}
		e, err := c.plugin.Spawn(&c.world, start.Pos, components.DefaultAgentParams())
		if err != nil {
			return err
		}
		c.agents = append(c.agents, e)
		if err := c.plugin.RequestMoveTarget(&c.world, e, goal.Pos); err != nil {
			return err
		}
	}
	return nil
}

// setTarget sends every agent to p.
func (c *studioCrowd) setTarget(p geom.Vec3) error {
	for _, e := range c.agents {
		if err := c.plugin.RequestMoveTarget(&c.world, e, p); err != nil {
			return err
		}
	}
	c.target = &p
	return nil
}

// stepCrowd runs one tick (s.mu held); a tick that changed the navmesh
// (a carve landed) makes the page draw it again.
func (s *studio) stepCrowd(c *studioCrowd) error {
	began := time.Now()
	if err := c.plugin.Step(&c.world, 1.0/studioTickRate); err != nil {
		return err
	}
	c.lastTick = time.Since(began)
	c.tick++
	if v := s.mesh.Snapshot().Version(); v != c.meshVersion {
		c.meshVersion = v
		s.version++
		s.layers = map[string][]byte{}
		s.events.publish("state", nil)
	}
	return nil
}

// playLoop steps c while it plays and is the studio's crowd.
func (s *studio) playLoop(c *studioCrowd) {
	ticker := time.NewTicker(time.Second / studioTickRate)
	defer ticker.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-ticker.C:
		}
		s.mu.Lock()
		if s.crowd != c || !c.playing {
			s.mu.Unlock()
			return
		}
		err := s.stepCrowd(c)
		if err == nil && c.lastTick > maxStudioTick {
			err = fmt.Errorf("a tick took %v, more than %v: paused", c.lastTick.Round(time.Millisecond), maxStudioTick)
		}
		if err != nil {
			c.playing = false
		}
		frame, frameErr := c.frame()
		s.mu.Unlock()
		if frameErr == nil {
			s.events.publish("frame", frame)
		}
		if err != nil {
			message, _ := json.Marshal(map[string]string{"error": err.Error()})
			s.events.publish("crowd-error", message)
			return
		}
	}
}

// frame encodes the crowd's state for the page.
func (c *studioCrowd) frame() ([]byte, error) {
	f := studioFrame{Tick: c.tick, Playing: c.playing, MsPerTick: float64(c.lastTick.Microseconds()) / 1000,
		Agents: make([][7]float32, 0, len(c.agents)), Obstacles: []studioObstacle{}}
	if c.target != nil {
		t := [3]float32(*c.target)
		f.Target = &t
	}
	radius := components.DefaultAgentParams().Radius
	for _, e := range c.agents {
		info, err := c.plugin.State(&c.world, e)
		if err != nil {
			continue // removed by the crowd (not in the studio)
		}
		if info.Arrived {
			f.Reached++
		}
		f.Agents = append(f.Agents, [7]float32{info.Position[0], info.Position[1], info.Position[2],
			info.Velocity[0], info.Velocity[2], radius, float32(info.Target)})
	}
	for _, e := range c.obstacles {
		info, err := c.plugin.Obstacle(&c.world, e)
		if err != nil {
			continue
		}
		f.Obstacles = append(f.Obstacles, studioObstacle{Pos: [3]float32(info.Pose.Position), Radius: info.Obstacle.Radius,
			Height: info.Obstacle.Height, Carving: info.Obstacle.Effect == components.ObstacleCarves, Landed: info.State.Landed})
	}
	return json.Marshal(f)
}
