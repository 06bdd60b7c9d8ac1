package components

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
)

// The state codecs of the components and resources (plugin.Save writes
// them, plugin.Load reads them): each type appends its fields to a record
// and reads them back, beside its definition so that a field added later
// is saved beside it. A field added in a later version goes at the end of
// its record and is read only when the record holds it (an older file's
// shorter record leaves it at its default), so that older files load.

// ErrBadState is wrapped when a saved component or resource cannot be read.
var ErrBadState = errors.New("components: bad state")

// stateError wraps a reader's problem.
func stateError(r *binstate.Reader) error {
	if err := r.End(); err != nil {
		return fmt.Errorf("components: %w: %w", err, ErrBadState)
	}
	return nil
}

// finiteVec reports a problem for a vector that is not finite.
func finiteVec(r *binstate.Reader, what string, v geom.Vec3) {
	if r.Err() == nil && !geom.IsFinite(v) {
		r.Fail("%s %v not finite", what, v)
	}
}

// finiteFloat reports a problem for a number that is not finite.
func finiteFloat(r *binstate.Reader, what string, f float32) {
	if r.Err() == nil && !finite(f) {
		r.Fail("%s %v not finite", what, f)
	}
}

// EntityIndex gives the index under which a saved state refers to an
// entity (the entity's place in the saved list); ok is false for an
// entity the state does not hold.
type EntityIndex func(e ecs.Entity) (index uint32, ok bool)

// EntityAt gives the entity a loaded state's index refers to; ok is false
// for an index out of range.
type EntityAt func(index uint32) (e ecs.Entity, ok bool)

// AppendState appends the parameters to b.
func (p *AgentParams) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.F32(p.Radius)
	w.F32(p.Height)
	w.F32(p.MaxAcceleration)
	w.F32(p.MaxSpeed)
	w.F32(p.CollisionQueryRange)
	w.F32(p.PathOptimizationRange)
	w.F32(p.SeparationWeight)
	w.U8(uint8(p.UpdateFlags))
	w.U8(p.AvoidancePreset)
	w.U8(p.Filter)
	w.U8(p.Type)
	w.F32(p.StoppingDistance)
	w.F32(p.BrakingDistance)
	w.U8(p.AvoidancePriority)
	w.U32(p.AvoidanceLayers)
	w.U32(p.AvoidanceMask)
	return w.B
}

// ReadState reads parameters written by AppendState and validates them
// (Validate); p changes only when they are valid.
func (p *AgentParams) ReadState(data []byte) error {
	r := binstate.NewReader(data, "agent parameters")
	v := AgentParams{
		Radius: r.F32(), Height: r.F32(), MaxAcceleration: r.F32(), MaxSpeed: r.F32(),
		CollisionQueryRange: r.F32(), PathOptimizationRange: r.F32(), SeparationWeight: r.F32(),
		UpdateFlags: UpdateFlags(r.U8()), AvoidancePreset: r.U8(), Filter: r.U8(), Type: r.U8(),
		StoppingDistance: r.F32(), BrakingDistance: r.F32(), AvoidancePriority: r.U8(),
		AvoidanceLayers: r.U32(), AvoidanceMask: r.U32(),
	}
	if err := stateError(r); err != nil {
		return err
	}
	if err := v.Validate(); err != nil {
		return fmt.Errorf("%w: %w", err, ErrBadState)
	}
	*p = v
	return nil
}

// AppendState appends the position to b.
func (p *Position) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(geom.Vec3(*p))
	return w.B
}

// ReadState reads a position written by AppendState; it must be finite.
func (p *Position) ReadState(data []byte) error {
	r := binstate.NewReader(data, "position")
	v := r.Vec3()
	finiteVec(r, "position", v)
	if err := stateError(r); err != nil {
		return err
	}
	*p = Position(v)
	return nil
}

// AppendState appends the velocities to b.
func (v *Velocity) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(v.Desired)
	w.Vec3(v.Planned)
	w.Vec3(v.Actual)
	w.F32(v.DesiredSpeed)
	return w.B
}

// ReadState reads velocities written by AppendState; they must be finite.
func (v *Velocity) ReadState(data []byte) error {
	r := binstate.NewReader(data, "velocity")
	out := Velocity{Desired: r.Vec3(), Planned: r.Vec3(), Actual: r.Vec3(), DesiredSpeed: r.F32()}
	finiteVec(r, "desired velocity", out.Desired)
	finiteVec(r, "planned velocity", out.Planned)
	finiteVec(r, "velocity", out.Actual)
	finiteFloat(r, "desired speed", out.DesiredSpeed)
	if err := stateError(r); err != nil {
		return err
	}
	*v = out
	return nil
}

// AppendState appends the agent's bookkeeping to b.
func (s *AgentState) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.U8(uint8(s.Mode))
	w.Bool(s.Partial)
	w.F32(s.TopologyOptimizationTime)
	w.Vec3(s.Displacement)
	pr := &s.Progress
	for _, p := range pr.Trail {
		w.Vec3(p)
	}
	w.U8(pr.TrailCount)
	w.F32(pr.Elapsed)
	w.U8(pr.Detours)
	w.F32(pr.Side)
	w.F32(pr.DetourTime)
	w.Bool(s.Stopped)
	return w.B
}

// ReadState reads bookkeeping written by AppendState.
func (s *AgentState) ReadState(data []byte) error {
	r := binstate.NewReader(data, "agent state")
	out := AgentState{Mode: AgentMode(r.U8()), Partial: r.Bool(), TopologyOptimizationTime: r.F32(), Displacement: r.Vec3()}
	pr := &out.Progress
	for i := range pr.Trail {
		pr.Trail[i] = r.Vec3()
	}
	pr.TrailCount, pr.Elapsed, pr.Detours, pr.Side, pr.DetourTime = r.U8(), r.F32(), r.U8(), r.F32(), r.F32()
	if r.Left() > 0 {
		out.Stopped = r.Bool()
	}
	if r.Err() == nil && (out.Mode > AgentReturning || pr.TrailCount > ProgressSamples) {
		r.Fail("mode %d, %d progress samples", out.Mode, pr.TrailCount)
	}
	if err := stateError(r); err != nil {
		return err
	}
	*s = out
	return nil
}

// AppendState appends the move request to b.
func (t *MoveTarget) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.U8(uint8(t.State))
	w.U64(uint64(t.Ref))
	w.Vec3(t.Position)
	w.Vec3(t.Velocity)
	w.U32(uint32(t.Request))
	w.Bool(t.Replan)
	w.F32(t.ReplanTime)
	w.Bool(t.Arrived)
	w.Bool(t.PartialReported)
	w.U64(uint64(t.PartialEnd))
	w.F32(t.ReplanDelay)
	w.Vec3(t.Requested)
	w.Bool(t.Displaced)
	w.Bool(t.ArrivedNear)
	w.Bool(t.Approach.Tracking)
	w.F32(t.Approach.Nearest)
	w.F32(t.Approach.Stalled)
	w.F32(t.PathWait) // added after the arrival fields: older records end before it
	w.Bool(t.PathFound)
	w.Bool(t.Approach.Pressed) // added after the wait for a first path
	return w.B
}

// ReadState reads a move request written by AppendState.
func (t *MoveTarget) ReadState(data []byte) error {
	r := binstate.NewReader(data, "move target")
	out := MoveTarget{
		State: TargetState(r.U8()), Ref: navmesh.Ref(r.U64()), Position: r.Vec3(), Velocity: r.Vec3(),
		Request: crowd.PathRequestID(r.U32()), Replan: r.Bool(), ReplanTime: r.F32(), Arrived: r.Bool(),
		PartialReported: r.Bool(), PartialEnd: navmesh.Ref(r.U64()), ReplanDelay: r.F32(),
		Requested: r.Vec3(), Displaced: r.Bool(),
	}
	if r.Left() > 0 {
		out.ArrivedNear = r.Bool()
		out.Approach = Approach{Tracking: r.Bool(), Nearest: r.F32(), Stalled: r.F32()}
	}
	if r.Err() == nil && r.Left() > 0 { // the wait for a first path came later
		out.PathWait, out.PathFound = r.F32(), r.Bool()
		if r.Err() == nil && !(out.PathWait >= 0 && finite(out.PathWait)) {
			r.Fail("path wait %v", out.PathWait)
		}
	}
	if r.Err() == nil && r.Left() > 0 { // the jostle watch came later
		out.Approach.Pressed = r.Bool()
	}
	if r.Err() == nil && out.State > TargetVelocity {
		r.Fail("target state %d", out.State)
	}
	finiteVec(r, "target", out.Position)
	finiteVec(r, "target velocity", out.Velocity)
	finiteVec(r, "requested target", out.Requested)
	if err := stateError(r); err != nil {
		return err
	}
	*t = out
	return nil
}

// AppendState appends the neighbours to b, each entity as index gives it
// (a neighbour it does not know is written as none).
func (n *Neighbours) AppendState(b []byte, index EntityIndex) []byte {
	w := binstate.Writer{B: b}
	count := 0
	for _, nb := range n.Slice() {
		if _, ok := index(nb.Entity); ok {
			count++
		}
	}
	w.U8(uint8(count))
	for _, nb := range n.Slice() {
		if i, ok := index(nb.Entity); ok {
			w.U32(i)
			w.F32(nb.DistanceSqr)
		}
	}
	return w.B
}

// ReadState reads neighbours written by AppendState, each entity from
// entity.
func (n *Neighbours) ReadState(data []byte, entity EntityAt) error {
	r := binstate.NewReader(data, "neighbours")
	var out Neighbours
	out.Count = int(r.U8())
	if r.Err() == nil && out.Count > MaxNeighbours {
		r.Fail("%d neighbours", out.Count)
		out.Count = 0
	}
	for i := range out.Count {
		index, dist := r.U32(), r.F32()
		e, ok := entity(index)
		if r.Err() == nil && !ok {
			r.Fail("neighbour %d is agent %d, which the state does not hold", i, index)
		}
		out.List[i] = Neighbour{Entity: e, DistanceSqr: dist}
	}
	if err := stateError(r); err != nil {
		return err
	}
	*n = out
	return nil
}

// AppendState appends the corners to b: every point of the buffer, those
// past Count too (the corridor's corner memory fills them).
func (c *Corners) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.U8(uint8(c.Count))
	for _, p := range c.Points {
		w.Vec3(p.Pos)
		w.U8(uint8(p.Flags))
		w.U64(uint64(p.Ref))
	}
	return w.B
}

// ReadState reads corners written by AppendState.
func (c *Corners) ReadState(data []byte) error {
	r := binstate.NewReader(data, "corners")
	var out Corners
	out.Count = int(r.U8())
	if r.Err() == nil && out.Count >= MaxCorners {
		r.Fail("%d corners", out.Count)
	}
	for i := range out.Points {
		out.Points[i] = query.StraightPathPoint{Pos: r.Vec3(), Flags: query.StraightPathFlags(r.U8()), Ref: navmesh.Ref(r.U64())}
	}
	if err := stateError(r); err != nil {
		return err
	}
	*c = out
	return nil
}

// AppendState appends the animation to b.
func (a *OffMeshAnimation) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Bool(a.Active)
	w.Vec3(a.InitPos)
	w.Vec3(a.StartPos)
	w.Vec3(a.EndPos)
	w.U64(uint64(a.Poly))
	w.F32(a.T)
	w.F32(a.TMax)
	w.U8(uint8(a.Kind))
	w.F32(a.ArcHeight)
	w.F32(a.Approach)
	return w.B
}

// ReadState reads an animation written by AppendState.
func (a *OffMeshAnimation) ReadState(data []byte) error {
	r := binstate.NewReader(data, "off-mesh animation")
	out := OffMeshAnimation{Active: r.Bool(), InitPos: r.Vec3(), StartPos: r.Vec3(), EndPos: r.Vec3(),
		Poly: navmesh.Ref(r.U64()), T: r.F32(), TMax: r.F32(), Kind: navmesh.LinkKind(r.U8()),
		ArcHeight: r.F32(), Approach: r.F32()}
	finiteVec(r, "animation start", out.InitPos)
	finiteVec(r, "connection start", out.StartPos)
	finiteVec(r, "connection end", out.EndPos)
	if err := stateError(r); err != nil {
		return err
	}
	*a = out
	return nil
}

// AppendState appends the obstacle's shape and behaviour to b.
func (o *Obstacle) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.U8(uint8(o.Shape))
	w.F32(o.Radius)
	w.F32(o.HalfExtents[0])
	w.F32(o.HalfExtents[1])
	w.F32(o.Height)
	w.U8(uint8(o.PointCount))
	for _, p := range o.Points[:min(max(o.PointCount, 0), MaxObstaclePoints)] {
		w.F32(p[0])
		w.F32(p[1])
	}
	w.U8(uint8(o.Effect))
	w.U8(o.Area)
	w.Bool(o.CarveWhileMoving)
	w.F32(o.StationaryTime)
	w.F32(o.MoveThreshold)
	return w.B
}

// ReadState reads an obstacle written by AppendState. It is not
// validated: the crowd keeps an invalid obstacle's entity and ignores it,
// as it does for one written by the user.
func (o *Obstacle) ReadState(data []byte) error {
	r := binstate.NewReader(data, "obstacle")
	out := Obstacle{Shape: ObstacleShape(r.U8()), Radius: r.F32()}
	out.HalfExtents = [2]float32{r.F32(), r.F32()}
	out.Height = r.F32()
	out.PointCount = int(r.U8())
	if r.Err() == nil && out.PointCount > MaxObstaclePoints {
		r.Fail("%d corners", out.PointCount)
		out.PointCount = 0
	}
	for i := range out.PointCount {
		out.Points[i] = [2]float32{r.F32(), r.F32()}
	}
	out.Effect, out.Area, out.CarveWhileMoving = ObstacleEffect(r.U8()), r.U8(), r.Bool()
	out.StationaryTime, out.MoveThreshold = r.F32(), r.F32()
	if err := stateError(r); err != nil {
		return err
	}
	*o = out
	return nil
}

// AppendState appends the pose to b.
func (p *ObstaclePose) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(p.Position)
	w.F32(p.Yaw)
	return w.B
}

// ReadState reads a pose written by AppendState; it must be finite.
func (p *ObstaclePose) ReadState(data []byte) error {
	r := binstate.NewReader(data, "obstacle pose")
	out := ObstaclePose{Position: r.Vec3(), Yaw: r.F32()}
	finiteVec(r, "pose", out.Position)
	finiteFloat(r, "yaw", out.Yaw)
	if err := stateError(r); err != nil {
		return err
	}
	*p = out
	return nil
}

// AppendState appends the obstacle's bookkeeping to b.
func (s *ObstacleState) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Bool(s.InCache)
	w.Bool(s.Landed)
	w.Bool(s.Refused)
	w.Vec3(s.Velocity)
	w.F32(s.StillTime)
	return w.B
}

// ReadState reads bookkeeping written by AppendState.
func (s *ObstacleState) ReadState(data []byte) error {
	r := binstate.NewReader(data, "obstacle state")
	out := ObstacleState{InCache: r.Bool(), Landed: r.Bool(), Refused: r.Bool(), Velocity: r.Vec3(), StillTime: r.F32()}
	if err := stateError(r); err != nil {
		return err
	}
	*s = out
	return nil
}

// AppendState appends the settings to b.
func (s *Settings) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(s.PlacementHalfExtents)
	w.Vec3(s.TargetHalfExtents)
	w.F32(s.ArrivalDistance)
	w.Int(s.PathQueueIterations)
	w.Int(s.MaxPathQueueRequestsPerTick)
	w.Bool(s.HierarchicalPaths)
	w.Int(s.CollisionIterations)
	w.Bool(s.DeadlockBreaker)
	w.Bool(s.WallSafeCollisions)
	w.F32(s.PileFraction)
	w.Bool(s.ContactSliding)
	w.Bool(s.PartialReplanBackoff)
	w.F32(s.PushSpeedLimit)
	w.F32(s.VisibilityRayDistance)
	w.F32(s.CornerRefreshDistance)
	w.Bool(s.EdgeHeightSnap)
	w.Bool(s.NoSurfaceJumps)
	w.Bool(s.CheckChangedCorridors)
	w.Bool(s.WalkBackToMesh)
	w.Bool(s.RecoverInvalidAgents)
	w.Int(s.ObstacleTilesPerTick)
	w.U64(uint64(s.ObstacleTimePerTick))
	w.F32(s.CarveInflation)
	w.F32(s.CarveDepth)
	w.F32(s.ArrivalStallTime)
	w.F32(s.ArrivalTolerance)
	w.Bool(s.BrakeFade)
	w.Bool(s.StopOnArrival)
	w.Int(s.QuickSearchesPerTick) // added after the arrival fields
	return w.B
}

// ReadState reads settings written by AppendState.
func (s *Settings) ReadState(data []byte) error {
	r := binstate.NewReader(data, "settings")
	const big = 1 << 30
	out := Settings{
		PlacementHalfExtents: r.Vec3(), TargetHalfExtents: r.Vec3(), ArrivalDistance: r.F32(),
		PathQueueIterations: r.Int(0, big), MaxPathQueueRequestsPerTick: r.Int(0, big),
		HierarchicalPaths: r.Bool(), CollisionIterations: r.Int(0, big), DeadlockBreaker: r.Bool(),
		WallSafeCollisions: r.Bool(), PileFraction: r.F32(), ContactSliding: r.Bool(),
		PartialReplanBackoff: r.Bool(), PushSpeedLimit: r.F32(), VisibilityRayDistance: r.F32(),
		CornerRefreshDistance: r.F32(), EdgeHeightSnap: r.Bool(), NoSurfaceJumps: r.Bool(),
		CheckChangedCorridors: r.Bool(), WalkBackToMesh: r.Bool(), RecoverInvalidAgents: r.Bool(),
		ObstacleTilesPerTick: r.Int(-big, big), ObstacleTimePerTick: time.Duration(r.U64()),
		CarveInflation: r.F32(), CarveDepth: r.F32(),
	}
	if r.Left() > 0 {
		out.ArrivalStallTime, out.ArrivalTolerance = r.F32(), r.F32()
		out.BrakeFade, out.StopOnArrival = r.Bool(), r.Bool()
	}
	if r.Err() == nil && r.Left() > 0 { // the quick search bound came later
		out.QuickSearchesPerTick = r.Int(0, big)
	}
	finiteVec(r, "placement box", out.PlacementHalfExtents)
	finiteVec(r, "target box", out.TargetHalfExtents)
	if err := stateError(r); err != nil {
		return err
	}
	*s = out
	return nil
}

// AppendState appends the time step and tick count to b.
func (t *TimeStep) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.F32(t.Dt)
	w.U64(t.Tick)
	return w.B
}

// ReadState reads a time step written by AppendState.
func (t *TimeStep) ReadState(data []byte) error {
	r := binstate.NewReader(data, "time step")
	out := TimeStep{Dt: r.F32(), Tick: r.U64()}
	finiteFloat(r, "time step", out.Dt)
	if err := stateError(r); err != nil {
		return err
	}
	*t = out
	return nil
}

// AppendState appends the presets to b.
func (p *AvoidancePresets) AppendState(b []byte) []byte {
	for i := range p.List {
		b = p.List[i].AppendState(b)
	}
	return b
}

// ReadState reads presets written by AppendState, each validated.
func (p *AvoidancePresets) ReadState(data []byte) error {
	var out AvoidancePresets
	for i := range out.List {
		var err error
		if data, err = out.List[i].ReadState(data); err != nil {
			return fmt.Errorf("components: avoidance preset %d: %w: %w", i, err, ErrBadState)
		}
	}
	if len(data) != 0 {
		return fmt.Errorf("components: avoidance presets: %d bytes left over: %w", len(data), ErrBadState)
	}
	*p = out
	return nil
}

// AppendState appends the filters' costs and flags to b (a Custom rule is
// code, not state: it is not written).
func (f *Filters) AppendState(b []byte) []byte {
	for i := range f.List {
		b = f.List[i].AppendState(b)
	}
	return b
}

// ReadState reads filters written by AppendState into f, keeping each
// filter's Custom rule.
func (f *Filters) ReadState(data []byte) error {
	out := *f
	for i := range out.List {
		var err error
		if data, err = out.List[i].ReadState(data); err != nil {
			return fmt.Errorf("components: filter %d: %w: %w", i, err, ErrBadState)
		}
	}
	if len(data) != 0 {
		return fmt.Errorf("components: filters: %d bytes left over: %w", len(data), ErrBadState)
	}
	*f = out
	return nil
}

// AppendState appends the counts of the last tick that the crowd reads
// back (WaitingForQueue bounds Config.MaxPendingRequests) to b; the others
// are measurements of that tick.
func (s *Stats) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Int(s.Agents)
	w.Int(s.PathQueuePending)
	w.Int(s.WaitingForQueue)
	w.Int(s.Obstacles)
	w.Int(s.ObstacleBodies)
	w.Int(s.ObstacleTilesPending)
	w.Int(s.PathQueueRequests)
	w.Int(s.Colliders) // added after the first files: their records end before it
	w.Int(s.ColliderTilesPending)
	// The waits for a first path came later still.
	w.Int(s.WaitingForPath)
	w.F32(s.LongestWait)
	w.Int(s.QuickSearchesPending)
	s.PathWaits.appendState(&w)
	s.OpenWaits.appendState(&w)
	return w.B
}

// ReadState reads counts written by AppendState into s.
func (s *Stats) ReadState(data []byte) error {
	r := binstate.NewReader(data, "stats")
	const big = math.MaxInt32 // an int on 32-bit builds too
	agents, pending, waiting := r.Int(0, big), r.Int(0, big), r.Int(0, big)
	obstacles, bodies, tiles, requests := r.Int(0, big), r.Int(0, big), r.Int(0, big), r.Int(0, big)
	colliders, colliderTiles := 0, 0
	if r.Err() == nil && r.Left() > 0 { // the collider counts came later
		colliders, colliderTiles = r.Int(0, big), r.Int(0, big)
	}
	var waiting4Path, quickPending int
	var longest float32
	var waits, open PathWaits
	if r.Err() == nil && r.Left() > 0 { // and the waits for a first path
		waiting4Path, longest, quickPending = r.Int(0, big), r.F32(), r.Int(0, big)
		waits.readState(r)
		open.readState(r)
		if r.Err() == nil && !(longest >= 0 && finite(longest)) {
			r.Fail("longest wait %v", longest)
		}
	}
	if err := stateError(r); err != nil {
		return err
	}
	s.WaitingForPath, s.LongestWait, s.QuickSearchesPending = waiting4Path, longest, quickPending
	s.PathWaits, s.OpenWaits = waits, open
	s.Agents, s.PathQueuePending, s.WaitingForQueue = agents, pending, waiting
	s.Obstacles, s.ObstacleBodies, s.ObstacleTilesPending, s.PathQueueRequests = obstacles, bodies, tiles, requests
	s.Colliders, s.ColliderTilesPending = colliders, colliderTiles
	return nil
}
