//go:build !unix

package plugin

import "time"

// processCPU returns 0 where the CPU time of the process is not read
// (WebAssembly).
func processCPU() time.Duration { return 0 }
