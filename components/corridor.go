package components

import (
	"github.com/archenav/archenav/navcore/crowd"
)

// Corridor is the agent's path corridor (dtCrowdAgent::corridor): the
// polygons from the one it stands in to the one its target is in. The
// crowd.Corridor is created at spawn with a fixed buffer and owned by the
// crowd; read it (Path, Target, FirstPoly...) but change it only through
// the plugin's agent API.
type Corridor struct {
	*crowd.Corridor
}
