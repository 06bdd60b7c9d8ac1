// Package components holds the data of the archenav crowd as arche ECS
// components and resources: one entity per agent, with its parameters,
// position, velocities, path corridor, move target, local boundary,
// neighbours, corners and off-mesh animation; obstacle entities with their
// shape and behaviour (Obstacle), pose and state; and the crowd-wide resources
// (navigation mesh, queries, path queue, proximity grid, filters, avoidance
// presets, time step, settings, events and stats).
//
// # Start here
//
// Read these components from your own systems (Position to render an agent,
// Velocity, AgentState, MoveTarget); change agents through the plugin package
// rather than by writing them, except where a field's doc says writing is
// fine. DefaultAgentParams and AgentParamsForRadius give an agent's
// parameters.
//
// The types are data only. Package systems runs the crowd stages over them
// and package plugin wires everything into a world; user systems may read
// any component and write the ones documented as inputs (AgentParams, and
// Velocity.Desired between the Steering and VelocitySampling stages).
//
// The names follow DetourCrowd's dtCrowdAgent fields, spelled out; each doc
// comment gives the Detour name once.
package components
