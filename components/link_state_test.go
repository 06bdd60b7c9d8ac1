package components

import (
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinkStatesRoundTrip: every field of the link components and of
// LinkTraffic comes back from its state record, entities through the
// index tables; a ride of an agent the table does not know is left out,
// and an unknown link entity comes back as the zero entity.
func TestLinkStatesRoundTrip(t *testing.T) {
	t.Run("Link", func(t *testing.T) {
		want := filled(func(l *Link) { l.Traversal = LinkManual })
		var got Link
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("LinkState", func(t *testing.T) {
		want := filled(func(s *LinkState) { s.Added.Traversal = LinkManual })
		var got LinkState
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("AgentLinkTraversal", func(t *testing.T) {
		want := AgentLinkTraversal{Traversal: LinkManual}
		var got AgentLinkTraversal
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
		require.ErrorIs(t, got.ReadState([]byte{2}), ErrBadState)
	})
	t.Run("LinkTraffic", func(t *testing.T) {
		world := ecs.NewWorld()
		a, b, gone, link, goneLink := world.NewEntity(), world.NewEntity(), world.NewEntity(), world.NewEntity(), world.NewEntity()
		agents := []ecs.Entity{a, b}
		links := []ecs.Entity{link}
		indexIn := func(list []ecs.Entity) EntityIndex {
			return func(e ecs.Entity) (uint32, bool) {
				for i, x := range list {
					if x == e {
						return uint32(i), true
					}
				}
				return 0, false
			}
		}
		atIn := func(list []ecs.Entity) EntityAt {
			return func(i uint32) (ecs.Entity, bool) {
				if int(i) >= len(list) {
					return ecs.Entity{}, false
				}
				return list[i], true
			}
		}
		ride := func(agent, link ecs.Entity, phase LinkPhase, k float32) LinkRide {
			r := filled(func(r *LinkRide) { r.Phase = phase })
			r.Agent, r.Link, r.Start = agent, link, geom.Vec3{k, k, k}
			return r
		}
		traffic := LinkTraffic{
			Rides: []LinkRide{ride(b, link, LinkQueued, 1), ride(gone, link, LinkCrossing, 2), ride(a, ecs.Entity{}, LinkHeld, 3), ride(a, goneLink, LinkHeld, 4)},
			Pending: []Event{
				{Kind: EventLinkCompleted, Entity: a, Position: geom.Vec3{1, 2, 3}, Target: geom.Vec3{4, 5, 6}, Poly: 7, Link: link, Type: 1},
				{Kind: EventLinkCancelled, Entity: gone, Poly: 9, Link: goneLink},
			},
		}
		var got LinkTraffic
		require.NoError(t, got.ReadState(traffic.AppendState(nil, indexIn(agents), indexIn(links)), atIn(agents), atIn(links)))
		want := LinkTraffic{
			Rides:   []LinkRide{traffic.Rides[0], traffic.Rides[2], traffic.Rides[3]},
			Pending: append([]Event(nil), traffic.Pending...),
		}
		want.Rides[2].Link = ecs.Entity{}
		want.Pending[1].Entity, want.Pending[1].Link = ecs.Entity{}, ecs.Entity{}
		assert.Equal(t, want, got)

		// A ride whose agent index is out of the table, or a phase out of
		// range, is refused and changes nothing.
		data := traffic.AppendState(nil, indexIn(agents), indexIn(links))
		require.ErrorIs(t, got.ReadState(data, atIn(agents[:1]), atIn(links)), ErrBadState)
		bad := LinkTraffic{Rides: []LinkRide{ride(a, link, LinkHeld+1, 1)}}
		require.ErrorIs(t, got.ReadState(bad.AppendState(nil, indexIn(agents), indexIn(links)), atIn(agents), atIn(links)), ErrBadState)
		for n := range len(data) {
			require.ErrorIs(t, got.ReadState(data[:n], atIn(agents), atIn(links)), ErrBadState, "cut at %d", n)
		}
		assert.Equal(t, want, got)
	})
}
