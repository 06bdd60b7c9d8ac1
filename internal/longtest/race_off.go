//go:build !race

package longtest

// Race reports whether the test binary was built with the race detector
// (go test -race).
const Race = false
