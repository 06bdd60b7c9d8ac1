// Package cputime reads the CPU time of the process and of the calling OS
// thread, so that tests and benchmarks on a machine shared with other work
// can report the work they did rather than the time they waited.
//
// Where a clock cannot be read (a platform without it, an error), the
// functions return 0 and, for Thread, false: callers then report wall time
// only.
package cputime
