//go:build !unix

package bake

import "time"

// processCPU returns 0 where the CPU time of the process is not read.
func processCPU() time.Duration { return 0 }
