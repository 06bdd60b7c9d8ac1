#!/usr/bin/env bash
# Cross-architecture checks (issue #25, docs/determinism.md): no fused
# multiply-adds in archenav's own code, and the exactness tests give amd64's
# bits on arm64 (under qemu), 386, amd64 with GOAMD64=v3 and, for a quick
# subset, WebAssembly under Node. Called from .ci/run; installs
# qemu-user-static and nodejs with apt-get when they are missing. 32-bit
# arm is not run here (its compile and qemu run cost minutes CI does not
# have); docs/determinism.md gives the local commands.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v node >/dev/null || need+=(nodejs)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== fused multiply-adds in archenav's functions (must be 0)"
bash .ci/fmacount.sh arm64
bash .ci/fmacount.sh amd64v3

# The exactness tests: bake fingerprints against the C++ (solo, tiled, tile
# cache layers, area marking), the C++ query CSVs, paths around obstacles,
# the crowd against recorded dtCrowd runs and its trace hashes, worker
# counts, the generated 1 km level's hash, geom's and detmath's
# trigonometry and its uses, the bakes and queries of the three RecastDemo
# levels and of a block of the 1 km level (TestLevelsAcrossCPUs), and the
# default crowd's trace (TestCrowdAcrossCPUs: two agent types, the
# hierarchy, obstacles and links coming and going over 600 ticks), which is
# recorded on amd64 first and compared on every other CPU.
exact=(
  "./navcore/geom/ ."
  "./internal/detmath/ TestGoldenHashes|TestSpecialCases"
  "./benchmarks/bigworld/ TestGeometryIsDeterministic"
  "./components/ TestTrigUsesHash"
  "./navcore/collider/ TestTriangulateHash"
  "./bake/ TestSoloMatchesRecast|TestTiledMatchesRecastDemoTable|TestTileCacheMatchesTheCPP|TestTileCacheWorkersDeterministic|TestAreaMarkingMatchesReference|TestTiledDungeonPathsMatchRecast|TestLevelsAcrossCPUs"
  "./navcore/query/ TestReferencePairs"
  "./navcore/tilecache/ TestDungeonPathsAroundObstacles"
  "./plugin/ TestMatchesReferenceCrowd|TestWorkersAreBitIdentical|TestReferenceModeWithWorkers|TestCrowdAcrossCPUs"
)
run_exact() { # env... -- go test flags
  for entry in "${exact[@]}"; do
    read -r pkg pattern <<<"$entry"
    env "$@" go test -count=1 -short -run "^(${pattern})\$" "$pkg"
  done
}

echo "== the default crowd's trace, recorded on amd64 (GOAMD64=v1)"
trace_dir="$(mktemp -d)"
trap 'rm -rf "$trace_dir"' EXIT
export ARCHENAV_CROSSCPU_TRACE="$trace_dir/crowd.txt"
GOAMD64=v1 go test -count=1 -short -run '^TestCrowdAcrossCPUs$' ./plugin/
[ -s "$ARCHENAV_CROSSCPU_TRACE" ] || { echo "TestCrowdAcrossCPUs recorded nothing"; exit 1; }

echo "== exactness tests, GOARCH=arm64 under qemu-aarch64-static"
exec_arm64="$(command -v qemu-aarch64-static)"
run_exact GOARCH=arm64 CGO_ENABLED=0 GOFLAGS="-exec=$exec_arm64"

echo "== exactness tests, GOARCH=386"
# Natively where the kernel runs 32-bit programs, else under
# qemu-i386-static, where Go's asynchronous preemption signals must be off
# ("bad g in signal handler").
if GOARCH=386 CGO_ENABLED=0 go test -count=1 -run '^$' ./internal/detmath/ >/dev/null 2>&1; then
  run_exact GOARCH=386 CGO_ENABLED=0
else
  echo "(no 32-bit support in this kernel: under qemu-i386-static)"
  run_exact GOARCH=386 CGO_ENABLED=0 GODEBUG=asyncpreemptoff=1 GOFLAGS="-exec=$(command -v qemu-i386-static)"
fi

echo "== exactness tests, GOAMD64=v3 (FMA allowed)"
run_exact GOAMD64=v3

echo "== quick subset, GOOS=js GOARCH=wasm under Node"
wasm_exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
[ -x "$wasm_exec" ] || wasm_exec="$(go env GOROOT)/misc/wasm/go_js_wasm_exec"
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$wasm_exec" ./navcore/geom/
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$wasm_exec" -run '^(TestGoldenHashes)$' ./internal/detmath/
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$wasm_exec" -run '^(TestTrigUsesHash)$' ./components/
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$wasm_exec" -run '^(TestSoloMatchesRecast|TestLevelsAcrossCPUs)$' ./bake/
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$wasm_exec" -run '^(TestCrowdAcrossCPUs)$' ./plugin/
