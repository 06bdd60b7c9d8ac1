package systems

import "github.com/archenav/archenav/navcore/geom"

// breakDeadlock nudges an agent that makes no progress; see Steering.
func (s *Steering) breakDeadlock(a *agent, desired geom.Vec3) geom.Vec3 {
	return desired
}
