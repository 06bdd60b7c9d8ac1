package tilecache

// Validate reports why AddObstacle would refuse o for its numbers alone
// (not finite, an empty or negative size, an unknown shape, a prism of
// more than MaxPrismPoints corners or not convex, an area above 63),
// wrapping ErrInvalidObstacle; nil when they are fine. Whether it touches
// a layer is checked when it is added. The crowd's obstacles
// (components.Obstacle.Validate) and navtool's obstacle files are checked
// by the same rules.
func (o Obstacle) Validate() error { return o.check() }
