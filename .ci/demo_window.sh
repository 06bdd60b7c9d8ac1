#!/usr/bin/env bash
# Builds the demo's interactive window (ebiten, build tag "ebiten") and runs
# it for a few seconds under a virtual X server, checking that the screenshot
# it takes shows the scene. Installs the Debian packages ebiten needs when they
# are missing (as root, or with sudo). Takes about a minute with a cold Go
# build cache, seconds with a warm one.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev pkg-config xvfb xauth)

echo "== demo window: Debian packages"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "all present"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== demo window: build (-tags ebiten)"
CGO_ENABLED=1 go build -tags ebiten -o "$work/demo_window" ./examples/demo_game

echo "== demo window: run under xvfb with -screenshot"
shot="$work/screenshot.png"
# ebiten's first frames under a software GL can be slow: allow well beyond
# the 4 seconds asked for before giving up.
timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24" \
  "$work/demo_window" -size 800x600 -agents 30 -screenshot "$shot" -exit-after 4

if [ ! -s "$shot" ]; then
  echo "no screenshot written" >&2
  exit 1
fi
go run ./examples/demo_game/internal/imagecheck -min-size 600 -min-colors 32 -max-share 0.9 "$shot"
echo "demo window: ok"
