//go:build !race

package bake

// raceEnabled reports that the tests run under the race detector.
const raceEnabled = false
