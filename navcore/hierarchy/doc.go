// Package hierarchy plans long paths on large tiled navigation meshes
// quickly: a hierarchical path search in the manner of HPA* and HNA*, on
// the polygons of a navmesh.Mesh, kept up to date as tiles change.
package hierarchy
