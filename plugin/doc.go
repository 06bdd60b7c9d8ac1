// Package plugin adds an archenav crowd to an arche world: agents that walk
// on a navmesh, avoid each other and the walls, and report what happens to
// them.
//
// # Start here
//
// New a Plugin with a Config holding your navmesh (Config.Mesh; MaxAgents and
// Workers are the other settings most games set), Install it in your world,
// Spawn agents and RequestMoveTarget, then Step every frame and read Events.
// The README's program (examples/quickstart) is the whole flow in 40 lines;
// docs/crowd.md is the guide. Config's fields each document their default:
// leave a field zero to get it.
//
//	p, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 500})
//	world := ecs.NewWorld()
//	err = p.Install(&world)
//	e, err := p.Spawn(&world, start, components.DefaultAgentParams())
//	err = p.RequestMoveTarget(&world, e, goal)
//	for tick := 0; tick < 600; tick++ {
//		p.Step(&world, 1.0/60)
//		for _, ev := range p.Events(&world) { ... }
//	}
//
// Install adds the crowd's resources (see package components) and joins the
// world's listener.Dispatch, creating it when there is none, so that the
// plugin notices agents removed with world.RemoveEntity. The crowd runs as a
// Schedule of named stages (the systems of package systems); user systems
// go Before or After any stage, or Replace it, and the whole Schedule is
// itself a System with Initialize / Update / Finalize, ready for an
// arche-model Model.
//
// Obstacles are entities too (SpawnObstacle, SetObstaclePose, SetObstacle,
// RemoveObstacle or world.RemoveEntity): with Config.TileCache they carve
// the navmesh (Unity's policy: once they stand still) or mark an area, and
// without changing the navmesh agents steer around them and are pushed out
// of them. The first stage, ObstacleSync, keeps the tile cache in step and
// runs its budgeted Update, so the rest of the tick sees one navmesh.
//
// Colliders are entities too (SpawnCollider, SetColliderPose, SetCollider,
// RemoveCollider): with Config.DynamicMesh (a bake/dynamic.Mesh) they add
// walkable ground (a bridge, a ramp, a crate to climb) or cut it away (a
// pit), any shape of package collider. The second stage, ColliderSync,
// keeps the dynamic mesh in step (a collider follows moves beyond its
// MoveThreshold) and runs its UpdateWith within the same tile budget;
// agents on the rebuilt tiles replan, walk back or recover as after any
// tile change.
//
// Runtime links are entities too (SpawnLink, SetLink, RemoveLink or
// world.RemoveEntity): a ladder, an elevator, a teleporter between any two
// points of the navmesh, however far apart (components.Link). The LinkSync
// stage, after ColliderSync, keeps the navmeshes' links in step; they land
// again by themselves on tiles the tile cache or the dynamic mesh rebuilt.
// Agents cross a LinkAuto link as a baked off-mesh connection; on a
// LinkManual one they stop and wait (EventLinkReached) until the game
// calls CompleteLink; a link's Capacity makes the others queue
// (EventLinkQueued). See docs/links.md.
//
// Doors: the default filters (components.DefaultFilter) exclude
// navmesh.FlagDisabled, RecastDemo's "disabled" flag. On a plain navmesh,
// close a door by setting that flag on its polygons (Mesh.SetPolyFlags;
// bake them as navmesh.AreaDoor to find them) and open it by clearing it.
// With a tile cache, make the door an obstacle: MarkingArea(navmesh.AreaDoor)
// while open, Carving() while closed. Agents standing in a closing door walk
// out at their own speed, and every corridor through it is replanned the
// tick it closes.
//
// Save and Load write a world's whole navigation state to a file and read
// it back into a crowd made from the same level; Snapshot and Restore keep
// it in memory, cheaply enough to take every tick for rollback. Either way
// the crowd goes on to the bit as it would have (docs/save-and-restore.md).
//
// The agent API checks its input: a position off the navmesh, a NaN, a dead
// or unknown entity, a call while a query locks the world, a full agent pool
// or path request backlog each give an error wrapping one of this package's
// sentinels, and change nothing.
package plugin
