#!/bin/sh
# mass_spawn.sh BASE.test NEW.test [ROUNDS [CONFIG]]: BenchmarkCrowdMassSpawn/CONFIG
# (default defaults: 10,000 agents spawned in one call on the 1 km level, 600
# ticks on 2 workers; defaults-1-worker on one) with two test binaries of this package (go test -c), alternating
# base and new ROUNDS times (default 3), each run in a fresh process, with
# the load average beside each run. Issue 23 asks max/p50 (the longest tick
# against the median, wall time) to stay at or below 3. RUNS=N (default 1)
# runs the crowd N times in each process and takes each tick's fastest run,
# which filters the machine's stalls out (see the benchmark's doc).
set -e
base=$1 new=$2 rounds=${3:-3} config=${4:-defaults}
cd "$(dirname "$0")"
i=0
while [ "$i" -lt "$rounds" ]; do
	for which in base new; do
		eval bin=\$$which
		printf '%s load %s\n' "$which" "$(cut -d' ' -f1-3 /proc/loadavg)"
		"$bin" -test.run '^$' -test.bench 'BenchmarkCrowdMassSpawn/'"$config"'$' -test.benchtime "${RUNS:-1}x" | grep '^BenchmarkCrowdMassSpawn'
	done
	i=$((i + 1))
done
