package components

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// OffMeshAnimation moves an agent across an off-mesh connection
// (dtCrowdAgentAnimation): first from where it was to the connection's
// start (the first 15% of the time), then along the connection.
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
	// divided by the agent's maximum speed [Units: s]
	TMax float32
}
