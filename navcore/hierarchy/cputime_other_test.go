//go:build !linux

package hierarchy

import "time"

// threadCPUTime is not available here: benchmarks report wall time only.
func threadCPUTime() (time.Duration, bool) { return 0, false }
