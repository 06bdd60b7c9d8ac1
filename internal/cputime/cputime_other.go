//go:build !unix

package cputime

import "time"

// Process is not read on this platform: it returns 0.
func Process() time.Duration { return 0 }

// Thread is not read on this platform: it returns 0, false.
func Thread() (time.Duration, bool) { return 0, false }
