#!/bin/sh
# detour_instructions.sh counts the instructions per call of the tiled
# query workload (see TestWriteDetourWorkload) with valgrind's callgrind,
# for archenav and, given CPP_CG, for a C++ harness of one's own built
# against Detour 1.6.0 (kept outside this repository) that takes
#
#   CPP_CG LEVEL.mset LEVEL.pairs QUERY PASSES PAIRS
#
# and makes the calls TestCallgrindWorkload makes (its last line of output
# "calls N"). Each figure is the difference of a run of 1 pass and one of
# 2 (path, straight) or 3 (nearest, raycast) passes, over the calls made in
# between: setup, loading and the first-pass warm-up cancel. On the Go side
# only this module's functions count (code inlined into them included):
# the runtime's scheduler, sysmon and GC do background work that grows
# with the run's wall time, and the heap's memory clears vary with the GC's
# timing, which made the counts of the same binary differ by up to 10 %;
# left out with them are the queries' own calls into the runtime (the
# node pool's memclr after a search of more than 128 nodes, up to about
# 1,000 instructions a path search). The 1 km level's path figure takes
# its first 2000 pairs (both sides), the rest all 10,000.
#
#   [CPP_CG=/path/to/cg] [GOBIN=bench.test] [LEVELS=...] [QUERIES=...] \
#     sh benchmarks/detour_instructions.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"
if [ -z "$GOBIN" ]; then
	go test -c -o "$work/bench.test" .
	GOBIN=$work/bench.test
fi
"$GOBIN" -test.run TestWriteDetourWorkload -detour-out "$work" > /dev/null
irdiff() { # side level query pairs p1 p2
	for p in $5 $6; do
		if [ "$1" = cpp ]; then
			valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$CPP_CG" "$work/$2.mset" "$work/$2.pairs" "$3" "$p" "$4" 2>/dev/null
		else
			CG_DIR=$work CG_LEVEL=$2 CG_QUERY=$3 CG_PASSES=$p CG_PAIRS=$4 GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1 \
				valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$GOBIN" -test.run TestCallgrindWorkload -test.v 2>/dev/null
		fi | awk '/calls [0-9]/ {for (i = 1; i < NF; i++) if ($i == "calls") c = $(i + 1)} END {printf "%s ", c}'
		callgrind_annotate --auto=no --threshold=100 "$work/cg.out" 2>/dev/null | awk -v side="$1" '
			/^ *[0-9,]+ +\(/ && !/PROGRAM TOTALS/ {
				n = $1; gsub(",", "", n)
				if (side == "go" && $0 !~ /github\.com\/archenav\/archenav\//) next
				s += n
			}
			END {printf "%.0f\n", s}'
	done | tr '\n' ' ' | awk -v s="$1" -v l="$2" -v q="$3" '{printf "%s %s %s instr/call %.0f (Ir %.0f - %.0f over %d calls)\n", s, l, q, ($4 - $2) / ($3 - $1), $4, $2, $3 - $1}'
}
for level in ${LEVELS:-dungeon nav_test undulating bigworld}; do
	for q in ${QUERIES:-nearest path straight raycast}; do
		pairs=0 p2=2
		case $q in nearest | raycast) p2=3 ;; esac
		[ $level = bigworld ] && [ $q = path ] && pairs=2000
		irdiff go $level $q $pairs 1 $p2
		if [ -n "$CPP_CG" ]; then
			irdiff cpp $level $q $pairs 1 $p2
		fi
	done
done
