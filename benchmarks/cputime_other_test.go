//go:build !linux

package benchmarks

import "time"

// threadCPUTime is not available here: benchmarks report wall time only.
func threadCPUTime() (time.Duration, bool) { return 0, false }

// processCPUTime is not available here.
func processCPUTime() time.Duration { return 0 }
