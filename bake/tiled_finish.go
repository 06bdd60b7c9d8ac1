package bake

// finish builds the poly mesh, the detail mesh and the tile data of a tile
// with contours. Stand-in: the poly mesh stages are not on main yet, so
// tiles stop after their contours.
func (t *tileBuild) finish(chf *CompactHeightfield, cset *ContourSet) error {
	return nil
}
