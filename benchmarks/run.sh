#!/bin/sh
# run.sh measures the whole benchmark suite in one go and prints the
# comparison with the C++ reference (benchmarks/cmd/compare).
#
#   benchmarks/run.sh [results-file]     (default benchmarks/results.txt)
#
# COUNT (default 5) is how many times the bake and query benchmarks run
# (compare keeps the fastest, as the C++ best-of-5); CROWD=0 skips the crowd,
# the longest part (about 5 minutes), and AVOIDANCE=0 the avoidance methods
# side by side (BenchmarkCrowdAvoidance, about 15 minutes; the first run on a
# machine also bakes the 1 km level).
set -eu
cd "$(dirname "$0")/.."
out=${1:-benchmarks/results.txt}
count=${COUNT:-5}
crowd=${CROWD:-1}
avoidance=${AVOIDANCE:-1}

bench() {
	go test -run '^$' -bench "$1" -benchtime "$2" -count "$3" -timeout 60m ./benchmarks/
}

{
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# $(go version)"
	echo "# kernel: $(uname -srm)"
	echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
	echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	bench '^Benchmark(Solo|BakerSolo)$' 20x "$count"
	bench '^Benchmark(Tiled|TiledWithIndex)$' 20x "$count"
	bench '^BenchmarkTileCacheLayers$' 20x "$count"
	bench '^BenchmarkQuery$' 50000x "$count"
	bench '^BenchmarkConcurrentQueries$' 50000x 3
	if [ "$crowd" != 0 ]; then
		bench '^Benchmark(Crowd|CrowdReferenceMode)$' 600x 1
	fi
	if [ "$avoidance" != 0 ]; then
		bench '^BenchmarkCrowdAvoidance$' 600x 1
	fi
	echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"

echo
go run ./benchmarks/cmd/compare "$out"
