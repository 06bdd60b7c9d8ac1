package components

import (
	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
)

// noIndex is the saved index of an entity the state does not hold (a
// link added to a navmesh directly, an entity removed since the last
// tick): it is read back as the zero entity.
const noIndex = ^uint32(0)

// Smallest encodings of a ride and an event in LinkTraffic's state
// [Units: bytes].
const (
	linkRideStateSize  = 4 + 4 + 8 + 1 + 1 + 8 + 12 + 12 + 8
	linkEventStateSize = 1 + 4 + 12 + 12 + 8 + 4 + 1
)

// AppendState appends the link to b.
func (l *Link) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(l.Start)
	w.Vec3(l.End)
	w.F32(l.Radius)
	w.F32(l.Width)
	w.Bool(l.Bidirectional)
	w.U8(l.Area)
	w.U16(l.Flags)
	w.F32(l.Cost)
	w.U32(l.UserID)
	w.U8(uint8(l.Traversal))
	w.U16(l.Capacity)
	w.U16(l.AgentTypes)
	return w.B
}

// ReadState reads a link written by AppendState. It is not validated: the
// crowd keeps a link entity whose Link is outside its limits and refuses
// its link (EventLinkRefused), as it does for one the user wrote.
func (l *Link) ReadState(data []byte) error {
	r := binstate.NewReader(data, "link")
	out := Link{Start: r.Vec3(), End: r.Vec3(), Radius: r.F32(), Width: r.F32(), Bidirectional: r.Bool(),
		Area: r.U8(), Flags: r.U16(), Cost: r.F32(), UserID: r.U32()}
	out.Traversal, out.Capacity, out.AgentTypes = LinkTraversal(r.U8()), r.U16(), r.U16()
	if err := stateError(r); err != nil {
		return err
	}
	*l = out
	return nil
}

// AppendState appends the link's bookkeeping to b.
func (s *LinkState) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	for _, id := range s.IDs {
		w.U64(uint64(id))
	}
	w.Record(s.Added.AppendState(nil))
	w.Bool(s.Refused)
	return w.B
}

// ReadState reads bookkeeping written by AppendState.
func (s *LinkState) ReadState(data []byte) error {
	r := binstate.NewReader(data, "link state")
	var out LinkState
	for i := range out.IDs {
		out.IDs[i] = navmesh.LinkID(r.U64())
	}
	added := r.Record()
	if r.Err() == nil {
		if err := out.Added.ReadState(added); err != nil {
			r.Fail("%v", err)
		}
	}
	out.Refused = r.Bool()
	if err := stateError(r); err != nil {
		return err
	}
	*s = out
	return nil
}

// AppendState appends the traffic to b: each ride and pending event, the
// agents as agents gives them and the link entities as links does. A ride
// of an agent agents does not know (removed since the last tick, when the
// LinkSync stage forgets its ride) is left out; a link entity or an event's
// agent it does not know is written as none and read back as the zero
// entity.
func (t *LinkTraffic) AppendState(b []byte, agents, links EntityIndex) []byte {
	w := binstate.Writer{B: b}
	index := func(e ecs.Entity, of EntityIndex) uint32 {
		if e.IsZero() {
			return noIndex
		}
		if i, ok := of(e); ok {
			return i
		}
		return noIndex
	}
	count := 0
	for i := range t.Rides {
		if _, ok := agents(t.Rides[i].Agent); ok {
			count++
		}
	}
	w.Count(count)
	for i := range t.Rides {
		r := &t.Rides[i]
		agent, ok := agents(r.Agent)
		if !ok {
			continue
		}
		w.U32(agent)
		w.U32(index(r.Link, links))
		w.U64(uint64(r.ID))
		w.U8(r.Type)
		w.U8(uint8(r.Phase))
		w.U64(uint64(r.Poly))
		w.Vec3(r.Start)
		w.Vec3(r.End)
		w.U64(uint64(r.Before))
	}
	w.Count(len(t.Pending))
	for i := range t.Pending {
		ev := &t.Pending[i]
		w.U8(uint8(ev.Kind))
		w.U32(index(ev.Entity, agents))
		w.Vec3(ev.Position)
		w.Vec3(ev.Target)
		w.U64(uint64(ev.Poly))
		w.U32(index(ev.Link, links))
		w.U8(ev.Type)
	}
	return w.B
}

// ReadState reads traffic written by AppendState into t, reusing its
// memory, each agent from agents and each link entity from links. A ride
// must name an agent of the state and a phase; t changes only when data is
// valid.
func (t *LinkTraffic) ReadState(data []byte, agents, links EntityAt) error {
	r := binstate.NewReader(data, "link traffic")
	entity := func(i uint32, of EntityAt, what string, must bool) ecs.Entity {
		if i == noIndex && !must {
			return ecs.Entity{}
		}
		e, ok := of(i)
		if r.Err() == nil && !ok {
			r.Fail("%s %d, which the state does not hold", what, i)
		}
		return e
	}
	n := r.Count(1<<24, linkRideStateSize)
	rides := make([]LinkRide, 0, n)
	for range n {
		ride := LinkRide{Agent: entity(r.U32(), agents, "agent", true)}
		ride.Link = entity(r.U32(), links, "link", false)
		ride.ID, ride.Type, ride.Phase = navmesh.LinkID(r.U64()), r.U8(), LinkPhase(r.U8())
		ride.Poly, ride.Start, ride.End, ride.Before = navmesh.Ref(r.U64()), r.Vec3(), r.Vec3(), navmesh.Ref(r.U64())
		if r.Err() == nil && (ride.Phase < LinkQueued || ride.Phase > LinkHeld) {
			r.Fail("ride %d in phase %d", len(rides), ride.Phase)
		}
		finiteVec(r, "ride start", ride.Start)
		finiteVec(r, "ride end", ride.End)
		if r.Err() != nil {
			break
		}
		rides = append(rides, ride)
	}
	n = r.Count(1<<24, linkEventStateSize)
	pending := make([]Event, 0, n)
	for range n {
		ev := Event{Kind: EventKind(r.U8())}
		ev.Entity = entity(r.U32(), agents, "event agent", false)
		ev.Position, ev.Target, ev.Poly = r.Vec3(), r.Vec3(), navmesh.Ref(r.U64())
		ev.Link = entity(r.U32(), links, "event link", false)
		ev.Type = r.U8()
		if r.Err() != nil {
			break
		}
		pending = append(pending, ev)
	}
	if err := stateError(r); err != nil {
		return err
	}
	t.Rides = append(t.Rides[:0], rides...)
	t.Pending = append(t.Pending[:0], pending...)
	return nil
}

// AppendState appends the override to b.
func (o *AgentLinkTraversal) AppendState(b []byte) []byte {
	return append(b, uint8(o.Traversal))
}

// ReadState reads an override written by AppendState.
func (o *AgentLinkTraversal) ReadState(data []byte) error {
	r := binstate.NewReader(data, "agent link traversal")
	out := AgentLinkTraversal{Traversal: LinkTraversal(r.U8())}
	if r.Err() == nil && out.Traversal > LinkManual {
		r.Fail("traversal %d", out.Traversal)
	}
	if err := stateError(r); err != nil {
		return err
	}
	*o = out
	return nil
}
