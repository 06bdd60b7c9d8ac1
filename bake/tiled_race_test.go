//go:build race

package bake

// raceEnabled reports that the tests run under the race detector, where the
// large-level bake would take minutes.
const raceEnabled = true
