package main

// The C++ figures of recastnavigation 1.6.0 (commit 9f4ce644), copied from
// the reference README: g++ 12.2 -O2 on a 2 vCPU AMD EPYC, single-threaded.
// Bake and query times are the best of several runs; crowd times the mean
// and 99th percentile tick of one 600-tick run.

// levels are the test levels, in table order.
var levels = []string{"dungeon", "nav_test", "undulating"}

// stageNames are the bake stages in pipeline order, as the benchmarks
// spell their metrics ("<name>-ms").
var stageNames = []string{"rasterize", "filters", "compact", "erode", "distancefield",
	"regions", "contours", "polymesh", "detailmesh", "tiledata"}

// stageTitles are stageNames as the tables print them.
var stageTitles = []string{"rasterize", "filters", "compact", "erode", "distance field",
	"regions", "contours", "poly mesh", "detail mesh", "tile data"}

// cppSolo is the best solo bake of each level [Units: ms].
var cppSolo = map[string]float64{"dungeon": 14.4, "nav_test": 20.2, "undulating": 95.9}

// cppStages are the stage times of the best solo bake, in stageNames order
// [Units: ms].
var cppStages = map[string][]float64{
	"dungeon":    {7.28, 1.09, 1.00, 0.75, 1.03, 1.39, 0.51, 0.38, 0.63, 0.04},
	"nav_test":   {6.03, 2.15, 1.86, 1.44, 2.18, 2.91, 0.94, 0.32, 1.90, 0.06},
	"undulating": {6.74, 2.45, 2.90, 2.32, 3.91, 5.83, 1.51, 0.66, 68.90, 0.09},
}

// cppTiled is the best tiled bake (tile size 32, one thread, chunk tree
// built beforehand) [Units: ms].
var cppTiled = map[string]float64{"dungeon": 23.8, "nav_test": 30.2, "undulating": 43.9}

// cppTileCacheLayers is the best layer bake of RecastDemo's tile cache
// sample (tile size 48, one thread, chunk tree built beforehand, FastLZ
// included): the reference README's layersBest [Units: ms].
var cppTileCacheLayers = map[string]float64{"dungeon": 21.4}

// queryKinds are the query columns, as the benchmarks name them.
var queryKinds = []string{"nearest", "path", "straight", "pair"}

// queryTitles are queryKinds as the tables print them.
var queryTitles = []string{"nearest poly", "find path", "straight path", "whole pair"}

// cppQueries are the query times per call, in queryKinds order [Units: µs].
var cppQueries = map[string][]float64{
	"dungeon":    {0.385, 3.02, 0.868, 4.81},
	"nav_test":   {0.463, 2.69, 0.458, 4.26},
	"undulating": {1.413, 3.13, 0.730, 6.90},
}

// cppWorkload is the shape of the C++ query workload: partial paths of the
// 10,000 pairs and the mean corridor length.
var cppWorkload = map[string]struct{ partial, meanPolys float64 }{
	"dungeon":    {1847, 14.55},
	"nav_test":   {7138, 6.62},
	"undulating": {0, 10.75},
}

// cppCrowd is one C++ crowd run: mean and 99th percentile tick [Units: ms]
// and the agents within 1 m of their target after 10 s.
type cppCrowd struct {
	mean, p99 float64
	reached   int
}

// cppCrowds are the C++ crowd runs by level and agent count.
var cppCrowds = map[string]map[int]cppCrowd{
	"dungeon": {
		100:  {0.60, 0.74, 21},
		500:  {3.91, 4.77, 47},
		1000: {6.65, 8.56, 153},
		2000: {10.36, 12.86, 491},
	},
	"nav_test": {
		100:  {0.44, 0.53, 21},
		1000: {7.01, 8.46, 113},
		2000: {12.39, 15.08, 278},
	},
}

// crowdCases are the crowd sizes the benchmarks run, by level.
var crowdCases = []struct {
	level  string
	agents []int
}{
	{"dungeon", []int{100, 500, 1000, 2000, 5000, 10000}},
	{"nav_test", []int{100, 1000, 2000}},
}
