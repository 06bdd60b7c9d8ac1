//go:build !race

package benchmarks

// raceEnabled reports a build with the race detector.
const raceEnabled = false
