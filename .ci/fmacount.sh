#!/usr/bin/env bash
# Counts the fused multiply-add instructions the Go compiler put into
# archenav's own functions for one target, with go tool objdump.
#
#   bash .ci/fmacount.sh arm64          # GOARCH=arm64: FMADD, FMSUB, FNMADD, FNMSUB (S and D forms)
#   bash .ci/fmacount.sh amd64v3        # GOARCH=amd64 GOAMD64=v3: VFMADD*, VFMSUB*, VFNMADD*, VFNMSUB*
#
# Every package's test binary (and every command's binary) is built for the
# target, so the library, its commands and its tests' oracles are all covered.
# Prints one line per fused instruction (function, source line, instruction)
# and exits 1 when there is any: see docs/determinism.md for why the count
# must be 0 and how to write an expression so it stays unfused.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-arm64}
case "$target" in
  arm64) export GOARCH=arm64; pattern='[[:space:]]F(N?)M(ADD|SUB)[SD][[:space:]]' ;;
  amd64v3) export GOARCH=amd64 GOAMD64=v3; pattern='[[:space:]]VF(N?)M(ADD|SUB)' ;;
  ppc64le) export GOARCH=ppc64le; pattern='[[:space:]]FN?M(ADD|SUB)S?[[:space:]]' ;;
  *) echo "unknown target $target (arm64, amd64v3, ppc64le)" >&2; exit 2 ;;
esac
export CGO_ENABLED=0

module=$(go list -m)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The binaries live in their own folder: the list of fused instructions is
# written beside it while the loop below globs it, so it must not match.
bins="$work/bin"
mkdir "$bins"

# One binary per package: its test binary when it has tests, its program
# when it is a command.
go list -f '{{.ImportPath}} {{.Name}} {{len .TestGoFiles}} {{len .XTestGoFiles}}' ./... |
  while read -r pkg name tests xtests; do
    out="$bins/$(echo "${pkg#"$module"}" | tr / _)"
    if [ "$tests" -gt 0 ] || [ "$xtests" -gt 0 ]; then
      go test -c -o "$out.test" "$pkg"
    elif [ "$name" = main ]; then
      go build -o "$out.bin" "$pkg"
    fi
  done

# Every fused instruction in a function of the module, once per function and
# source line even when several binaries link it.
for bin in "$bins"/*; do
  go tool objdump -s "^${module//./\\.}/" "$bin"
done | awk -v pat="$pattern" '
  /^TEXT / { fn = $2; next }
  $0 ~ pat { print fn, $1, $4, $5, $6, $7, $8 }
' | awk '{ key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; print } }' > "$work/found"

count=$(awk '{ print $1, $2 }' "$work/found" | sort -u | wc -l)
if [ "$count" -gt 0 ]; then
  sed -E 's/[[:space:]]+/ /g' "$work/found" | sort
  echo "fmacount $target: $count fused multiply-add instructions in $(awk '{ print $1 }' "$work/found" | sort -u | wc -l) functions of $module" >&2
  exit 1
fi
echo "fmacount $target: 0 fused multiply-add instructions in $module"
