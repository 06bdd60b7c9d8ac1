#!/bin/sh
# arrival.sh measures how crowds arrive: `navtool crowd -retarget` (a new
# random target on each arrival) on dungeon and nav_test with default
# agents, for two builds side by side on the same seeds, alternating the
# builds run by run so that both see the same machine load.
#
#   benchmarks/arrival.sh [BASE [NEW]]    (git revisions; default main, the work tree)
#
# AGENTS (default "200 500"), SEEDS (default "1 2 3"), TICKS (default 3600,
# 60 s at 60 ticks a second), EXTRA (more navtool crowd flags, e.g.
# -reference or -connected). Prints one line per run: arrivals per minute,
# agents hovering at the end (a target in reach within 2 m, not arrived,
# moved less than 0.5 m in the last 5 s), agents within 1 m of their
# target not arrived (of them still for 5 s), stuck agents, overlapping
# agent-ticks; then the sums per build. Needs jq.
set -eu
cd "$(dirname "$0")/.."
base=${1:-main}
new=${2:-}
agents=${AGENTS:-200 500}
seeds=${SEEDS:-1 2 3}
ticks=${TICKS:-3600}
extra=${EXTRA:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # build REV OUT: navtool of git revision REV, or of the work tree when REV is empty
	if [ -z "$1" ]; then
		go build -o "$2" ./cmd/navtool
		return
	fi
	mkdir -p "$tmp/src-$1"
	git archive "$1" | tar -x -C "$tmp/src-$1"
	(cd "$tmp/src-$1" && go build -o "$2" ./cmd/navtool)
}
build "$base" "$tmp/base"
build "$new" "$tmp/new"
"$tmp/new" bake -tile-size 0 -o "$tmp/nav_test.navmesh" testdata/nav_test.obj >/dev/null

echo "# base ${base}, new ${new:-work tree}; ticks $ticks; extra '$extra'; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-9s %6s %4s %10s %8s %14s %6s %8s\n' build level agents seed arrivals/m hovering 'near(still)' stuck overlap
for level in dungeon nav_test; do
	mesh=testdata/navmesh_solo_dungeon.bin
	[ "$level" = nav_test ] && mesh=$tmp/nav_test.navmesh
	for n in $agents; do
		for seed in $seeds; do
			for b in base new; do
				# shellcheck disable=SC2086
				"$tmp/$b" crowd -navmesh "$mesh" -agents "$n" -seed "$seed" -ticks "$ticks" -retarget -json $extra >"$tmp/out.json"
				jq -r --arg b "$b" --arg l "$level" --arg s "$seed" \
					'[$b, $l, .agents, $s, (.arrivalsPerMinute*10|round/10), .hovering, "\(.nearNotArrived)(\(.nearNotArrivedStill))", .stuckAgents, .overlapAgentTicks] | @tsv' \
					"$tmp/out.json" | tee -a "$tmp/all.tsv" | awk -F'\t' '{printf "%-8s %-9s %6s %4s %10s %8s %14s %6s %8s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9}'
			done
		done
	done
done
echo "# sums: build, arrivals per minute, hovering, near not arrived, stuck, overlap; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F'\t' '{split($7, near, "("); a[$1]+=$5; h[$1]+=$6; n[$1]+=near[1]; s[$1]+=$8; o[$1]+=$9}
	END {for (b in a) printf "%-8s %10.1f %8d %8d %6d %8d\n", b, a[b], h[b], n[b], s[b], o[b]}' "$tmp/all.tsv" | sort
