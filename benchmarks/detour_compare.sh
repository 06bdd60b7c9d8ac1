#!/bin/sh
# detour_compare.sh runs the tiled query workload beside a C++ harness of
# one's own (built against Detour 1.6.0 and kept outside this repository;
# see TestWriteDetourWorkload for the files it reads and what it prints)
# and prints the raw figures, then a side-by-side table.
#
#   CPP_BENCH=/path/to/bench [CPP_BENCH_CPU=/path/to/bench-cpu] [ROUNDS=3] \
#     sh benchmarks/detour_compare.sh > out.txt
#
# Each round runs the C++ harness on every level (best of 3 passes over the
# 10,000 pairs), then BenchmarkTiledQuery 3 times (-test.count 3; each a
# mean over 20,000 calls a query, the nearest query's 20,000 being one pass
# over the pairs' starts and ends, as the C++ pass is): alternating, so that
# both sides meet the same load. The table takes each side's best pass of
# all rounds, so both sides are the best of 3 x ROUNDS passes. CPP_BENCH_CPU, a build of the harness timing with the
# thread's CPU clock, is compared with Go's cpu-us/op (the thread's CPU time,
# which on a shared machine leaves out the waits for a core).
set -e
: "${CPP_BENCH:?set CPP_BENCH to the C++ harness}"
ROUNDS=${ROUNDS:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"
go test -c -o "$work/bench.test" .
"$work/bench.test" -test.run TestWriteDetourWorkload -detour-out "$work" > /dev/null
levels="dungeon nav_test undulating bigworld"
{
echo "# $(date -u) $(git rev-parse --short HEAD) loadavg $(cat /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
	echo "# round $r loadavg $(cat /proc/loadavg)"
	for l in $levels; do
		"$CPP_BENCH" "$work/$l.mset" "$work/$l.pairs" "$work/$l.expect" 3
		if [ -n "$CPP_BENCH_CPU" ]; then
			"$CPP_BENCH_CPU" "$work/$l.mset" "$work/$l.pairs" "$work/$l.expect" 3 | sed 's/^cpp /cpp-cpu /'
		fi
	done
	"$work/bench.test" -test.run '^$' -test.bench BenchmarkTiledQuery -test.benchtime 20000x -test.count 3 | grep '^Benchmark'
done
"$work/bench.test" -test.run '^$' -test.bench BenchmarkTiledMeshMemory -test.benchtime 1x | grep '^Benchmark'
echo "# done $(date -u) loadavg $(cat /proc/loadavg)"
} | tee "$work/raw"
# The table: per level and query the best round of each side, µs a call.
awk '
function keep(key, v) { if (!(key in best) || v < best[key]) best[key] = v }
/^cpp/ {
	kind = $1; n = split($2, parts, "/"); level = parts[n]; sub(/\.mset$/, "", level)
	for (i = 3; i < NF; i++) {
		if ($i ~ /-us$/) { q = $i; sub(/-us$/, "", q); keep(kind "/" level "/" q, $(i + 1)) }
		if ($i == "mesh-bytes") cmem[level] = $(i + 1)
		if ($i == "mismatches" && $(i + 1) != 0) bad[level] = $(i + 1)
	}
}
/^BenchmarkTiledQuery\// {
	split($1, parts, "/"); level = parts[2]; q = parts[3]; sub(/-[0-9]+$/, "", q)
	keep("go/" level "/" q, $3 / 1000)
	for (i = 4; i < NF; i++) if ($(i + 1) == "cpu-us/op") keep("go-cpu/" level "/" q, $i)
}
/^BenchmarkTiledMeshMemory\// {
	split($1, parts, "/"); level = parts[2]; sub(/-[0-9]+$/, "", level)
	for (i = 4; i < NF; i++) if ($(i + 1) == "mesh-bytes") gmem[level] = $i
}
END {
	nl = split("dungeon nav_test undulating bigworld", levels, " ")
	nq = split("nearest path straight raycast", queries, " ")
	printf "\n%-10s %-8s %10s %10s %7s %10s %10s %7s\n", "level", "query", "go-us", "c++-us", "ratio", "go-cpu-us", "c++-cpu-us", "ratio"
	for (l = 1; l <= nl; l++) for (k = 1; k <= nq; k++) {
		lv = levels[l]; q = queries[k]
		g = best["go/" lv "/" q]; c = best["cpp/" lv "/" q]; gc = best["go-cpu/" lv "/" q]; cc = best["cpp-cpu/" lv "/" q]
		printf "%-10s %-8s %10.3f %10.3f %7.2f", lv, q, g, c, (c > 0 ? g / c : 0)
		if (cc > 0) printf " %10.3f %10.3f %7.2f", gc, cc, gc / cc
		printf "\n"
	}
	printf "\n%-10s %12s %12s %7s\n", "level", "go-bytes", "c++-bytes", "ratio"
	for (l = 1; l <= nl; l++) {
		lv = levels[l]
		printf "%-10s %12d %12d %7.4f\n", lv, gmem[lv], cmem[lv], (cmem[lv] > 0 ? gmem[lv] / cmem[lv] : 0)
	}
	for (lv in bad) printf "MISMATCH %s: %d pairs differ from the C++\n", lv, bad[lv]
}' "$work/raw"
