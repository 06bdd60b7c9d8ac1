package tilecache

// Validate reports why AddObstacle would refuse o for its numbers alone
// (not finite, a negative size, an unknown shape, a prism that is not
// convex, an area above 63), wrapping ErrInvalidObstacle; nil when they are
// fine. Whether it touches a layer is checked when it is added.
func (o Obstacle) Validate() error { return o.check() }
