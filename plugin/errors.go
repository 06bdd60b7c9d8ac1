package plugin

import "errors"

// Sentinel errors, for errors.Is. The plugin's errors wrap one of them with
// context.
var (
	// ErrInvalidConfig: a Config field is outside its limits.
	ErrInvalidConfig = errors.New("plugin: invalid config")
	// ErrNotInstalled: the plugin is not installed in the world given.
	ErrNotInstalled = errors.New("plugin: not installed in this world")
	// ErrAlreadyInstalled: the plugin, or another crowd, is already
	// installed.
	ErrAlreadyInstalled = errors.New("plugin: already installed")
	// ErrWorldLocked: a query is iterating the world, so entities cannot be
	// created, removed or changed now; call again after the query.
	ErrWorldLocked = errors.New("plugin: world locked by a query")
	// ErrNotAgent: the entity is dead, zero, or not an agent of this crowd.
	ErrNotAgent = errors.New("plugin: not a live agent")
	// ErrInvalidInput: a position, velocity or parameter is NaN, infinite
	// or out of its limits.
	ErrInvalidInput = errors.New("plugin: invalid input")
	// ErrOffMesh: no navmesh polygon was found near the position.
	ErrOffMesh = errors.New("plugin: position not on the navmesh")
	// ErrTooManyAgents: the crowd already holds Config.MaxAgents agents.
	ErrTooManyAgents = errors.New("plugin: agent limit reached")
	// ErrPathQueueFull: Config.MaxPendingRequests agents already wait for a
	// path; request again after a tick or two.
	ErrPathQueueFull = errors.New("plugin: path request backlog full")
	// ErrNoTileCache: an obstacle that carves or marks an area needs
	// Config.TileCache.
	ErrNoTileCache = errors.New("plugin: no tile cache for an obstacle that changes the navmesh")
	// ErrNotObstacle: the entity is dead, zero, or not an obstacle.
	ErrNotObstacle = errors.New("plugin: not a live obstacle")
)
