// Package longtest gates the project's long property and soak tests behind
// one switch, so that a plain `go test ./...` stays quick while CI runs
// everything.
//
// Long tests run when the environment variable ARCHENAV_LONG is "1" (CI's
// .ci/run sets it) and are skipped otherwise, and always under -short. A
// long test calls Skip first; one that takes minutes even without the race
// detector (which makes it ten times slower) calls SkipSoak, and CI runs it
// in its second, race-free pass (ARCHENAV_LONG=1 go test ./...).
//
// A soak test runs a short version under ARCHENAV_LONG, cheap enough for
// CI, and its full length when ARCHENAV_SOAK gives one (SoakDuration):
// ARCHENAV_SOAK=30m runs 30 simulated minutes.
package longtest

import (
	"os"
	"testing"
	"time"
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

// SoakEnvVar is the environment variable that gives a soak test its full
// length, as a Go duration of simulated time ("30m", "2h").
const SoakEnvVar = "ARCHENAV_SOAK"

// maxSoak bounds SoakDuration: a day of simulated time.
const maxSoak = 24 * time.Hour

// SoakDuration returns how much simulated time a soak test runs: the
// duration ARCHENAV_SOAK gives (up to a day), or short when it is unset;
// full reports that ARCHENAV_SOAK set it. A value that is not a positive
// duration fails t. Call SkipSoak first: ARCHENAV_SOAK does not turn the
// long tests on by itself.
func SoakDuration(t testing.TB, short time.Duration) (d time.Duration, full bool) {
	t.Helper()
	value := os.Getenv(SoakEnvVar)
	if value == "" {
		return short, false
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 || d > maxSoak {
		t.Fatalf("%s=%q: want a duration of simulated time in (0, %v], such as 30m", SoakEnvVar, value, maxSoak)
	}
	return d, true
}
