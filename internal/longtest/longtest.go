// Package longtest gates the project's long property and soak tests behind
// one switch, so that a plain `go test ./...` stays quick while CI runs
// everything.
//
// Long tests run when the environment variable ARCHENAV_LONG is "1" (CI's
// .ci/run sets it) and are skipped otherwise, and always under -short. A
// long test calls Skip first; one that takes minutes even without the race
// detector (which makes it ten times slower) calls SkipSoak, and CI runs it
// in its second, race-free pass (ARCHENAV_LONG=1 go test ./...).
package longtest

import (
	"os"
	"testing"
)

// EnvVar is the environment variable that turns the long tests on.
const EnvVar = "ARCHENAV_LONG"

// Enabled reports whether long tests should run: ARCHENAV_LONG=1 and not
// -short.
func Enabled() bool {
	return os.Getenv(EnvVar) == "1" && !testing.Short()
}

// Skip skips t unless long tests are enabled, naming the switch.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long test: set %s=1 to run it", EnvVar)
	}
}

// SkipSoak skips t unless long tests are enabled and the binary is built
// without the race detector: for soak runs too slow to run under -race,
// which CI runs in its race-free pass.
func SkipSoak(t testing.TB) {
	t.Helper()
	Skip(t)
	if Race {
		t.Skip("soak test: too slow under the race detector; CI runs it without -race")
	}
}
