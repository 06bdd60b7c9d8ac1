package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is go test -bench output with a benchmark run twice.
const sample = `goos: linux
goarch: amd64
pkg: github.com/archenav/archenav/benchmarks
cpu: AMD EPYC
BenchmarkSolo/dungeon-2     	      20	  15000000 ns/op	         7.500 rasterize-ms	         0.3800 polymesh-ms	 3330539 B/op	     274 allocs/op
BenchmarkSolo/dungeon-2     	      20	  14400000 ns/op	         7.280 rasterize-ms	         0.4000 polymesh-ms	 3330539 B/op	     274 allocs/op
BenchmarkTiled/dungeon/workers=1-2   	       20	  23800000 ns/op	  260025 B/op	    1062 allocs/op
BenchmarkTiled/dungeon/workers=2-2   	       20	  14000000 ns/op	  370446 B/op	    1101 allocs/op
BenchmarkTileCacheLayers/dungeon/workers=1-2   	      20	  21400000 ns/op	         1.100 layers-ms	  264376 B/op	     193 allocs/op
BenchmarkTileCacheLayers/dungeon/workers=2-2   	      20	  12840000 ns/op	         1.200 layers-ms	  246607 B/op	     192 allocs/op
BenchmarkQuery/dungeon/pair-2            	   50000	      4810 ns/op	        14.37 mean-polys	      1822 partial-paths	       0 B/op	       0 allocs/op
BenchmarkQuery/dungeon/path-2            	   50000	      2500 ns/op	        14.37 mean-polys	      1822 partial-paths	       0 B/op	       0 allocs/op
BenchmarkConcurrentQueries/dungeon/tiled+writer/goroutines=2-2 	   20000	      4000 ns/op	        500.0 edits/s	         0.0010 failed-pairs	       5 B/op	       0 allocs/op
BenchmarkCrowd/dungeon/agents=1000/workers=1-2        	     600	   6650000 ns/op	         0.05 allocs/tick	         8.560 p99-ms	       117.0 reached-1m	         0 steady-allocs/tick	         3.000 waiting	    3421 B/op	       0 allocs/op
PASS
ok  	github.com/archenav/archenav/benchmarks	1.024s
`

func TestParseKeepsEveryRunAndPicksTheFastest(t *testing.T) {
	rs := results{}
	require.NoError(t, parse(strings.NewReader(sample), rs))
	require.Len(t, rs["BenchmarkSolo/dungeon"], 2)
	best, ok := rs.best("BenchmarkSolo/dungeon")
	require.True(t, ok)
	assert.Equal(t, 20, best.iterations)
	assert.InDelta(t, 14400000, best.values["ns/op"], 0)
	assert.InDelta(t, 7.28, best.values["rasterize-ms"], 1e-9, "metrics come from the fastest run")
	v, ok := rs.value("BenchmarkConcurrentQueries/dungeon/tiled+writer/goroutines=2", "edits/s")
	require.True(t, ok)
	assert.InDelta(t, 500, v, 0)
	_, ok = rs.best("BenchmarkSolo/nav_test")
	assert.False(t, ok)
}

func TestParseRejectsABrokenLine(t *testing.T) {
	err := parse(strings.NewReader("BenchmarkX-2 10 12 ns/op 7\n"), results{})
	assert.ErrorContains(t, err, "line 1")
}

func TestTablesSetOursBesideTheReference(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(nil, strings.NewReader(sample), &out))
	text := out.String()
	for _, row := range []string{
		"| dungeon | 14.4 | 14.4 | 1.00× |",                             // solo bake
		"| rasterize | 7.28 | 7.28 | 1.00× |",                           // stages of the fastest run
		"| dungeon | 23.8 | 23.8 | 1.00× | 14.0 | 0.59× | 1.70× |",      // tiled, speed-up
		"| dungeon | whole pair | 4.81 | 4.81 | 1.00× | 0 |",            // queries
		"| dungeon | 21.4 | 21.4 | 1.00× | 12.8 | 0.60× | 1.10 | 193 |", // tile cache layers
		"| dungeon | 1847 | 1822 | 14.6 | 14.4 |",                       // workload
		"| dungeon | tiled+writer | – | – | 4.00 | – | – / 500 | – / 0.10 % |",
		"| dungeon | 1000 | 6.65 | 8.56 | 6.65 | 8.56 | 1.00× | – | – | – | 0.050 (0.000) | 153 / 117 | 3 |",
	} {
		assert.Contains(t, text, row)
	}
	assert.NotContains(t, text, "reference mode", "no table without results")
}

func TestRunNeedsResults(t *testing.T) {
	err := run(nil, strings.NewReader("PASS\n"), &bytes.Buffer{})
	assert.ErrorContains(t, err, "no benchmark results")
}

func TestAvoidanceTablePairsTheMethods(t *testing.T) {
	const lines = `BenchmarkCrowdAvoidance/nav_test/agents=2000/method=adaptive/workers=1-2 	600	12000000 ns/op	0.1 allocs/tick	6.000 avoid-ms	0.0800 dv/tick	0 infeasible/tick	0 off-mesh	2900000 overlap	15.0 p99-ms	298.0 reached-1m	0 steady-allocs/tick	11.00 stuck	0 wall-pen
BenchmarkCrowdAvoidance/nav_test/agents=2000/method=orca/workers=1-2 	600	7000000 ns/op	0.1 allocs/tick	1.000 avoid-ms	0.0650 dv/tick	95.00 infeasible/tick	0 off-mesh	3500000 overlap	9.0 p99-ms	310.0 reached-1m	0 steady-allocs/tick	9.000 stuck	0 wall-pen
BenchmarkCrowdAvoidance/dungeon/agents=100/method=adaptive/workers=1-2 	600	800000 ns/op	0.1 allocs/tick	0.500 avoid-ms	0.0560 dv/tick	0 infeasible/tick	0 off-mesh	1 overlap	1.0 p99-ms	26.0 reached-1m	0 steady-allocs/tick	0 stuck	0 wall-pen
`
	var out bytes.Buffer
	require.NoError(t, run(nil, strings.NewReader(lines), &out))
	text := out.String()
	assert.Contains(t, text, "| nav_test | 2000 | 1 | 12.0 / 7.00 | – / – | 6.00 / 1.00 | 6.0× | 298 / 310 | 11 / 9 | 2900000 / 3500000 | 0 / 0 | 0.080 / 0.065 | 95.0 |")
	assert.Contains(t, text, "| dungeon | 100 | 1 | 0.800 / – | – / – | 0.500 / – | – |", "a method missing shows as –")
	assert.Less(t, strings.Index(text, "| dungeon | 100 |"), strings.Index(text, "| nav_test | 2000 |"), "rows by level, then agents")
}
