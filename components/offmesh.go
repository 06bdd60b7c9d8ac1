package components

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// OffMeshAnimation moves an agent across an off-mesh connection
// (dtCrowdAgentAnimation): first from where it was to the connection's
// start (the first 15% of the time), then along the connection: in a
// straight line, as the C++ does, or, for the bake's automatic links, along
// the drop's or the jump's path (navmesh.LinkPath) in the time gravity
// takes (see systems.OffMeshAnimation).
type OffMeshAnimation struct {
	// Active is set while the agent crosses.
	Active bool
	// InitPos is where the agent stood when it started [Units: world units]
	InitPos geom.Vec3
	// StartPos and EndPos are the connection's ends in the direction of
	// travel [Units: world units]
	StartPos, EndPos geom.Vec3
	// Poly is the off-mesh connection polygon (polyRef).
	Poly navmesh.Ref
	// T is the time since the crossing started [Units: s]
	T float32
	// TMax is the crossing's duration: half the connection's xz length
	// divided by the agent's maximum speed, or for an automatic link the
	// approach plus the flight [Units: s]
	TMax float32
	// Kind is how the connection is crossed: navmesh.LinkPlain (any
	// connection but the bake's drops and jumps) in a straight line.
	Kind navmesh.LinkKind
	// ArcHeight is a jump's apex above its higher end [Units: world units]
	ArcHeight float32
	// Approach is when the agent reaches StartPos; 0 means 15% of TMax,
	// the C++ share [Units: s]
	Approach float32
}
