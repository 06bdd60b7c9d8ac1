// Package benchmarks holds archenav's end-to-end benchmarks: the solo and
// tiled bakes of the three test levels, the reference query workload, queries
// on several goroutines sharing one mesh while a tile changes, and the crowd.
// Each benchmark matches one figure of the C++ reference (recastnavigation
// 1.6.0) so the two can be set side by side; cmd/compare prints that table
// from `go test -bench` output, and REPORT.md holds the latest one.
//
// The package has no API: everything is in its _test.go files. Run it with
//
//	go test -run '^$' -bench . -benchtime 20x ./benchmarks/
//
// or with run.sh, which picks a run length per group and prints the table.
package benchmarks
