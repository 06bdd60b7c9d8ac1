#!/usr/bin/env bash
# The studio's browser tests (navtool studio in headless Chromium):
# installs Debian's chromium when it is missing, then runs them with
# ARCHENAV_BROWSER=1, so that a missing browser fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
chromium --version 2>/dev/null || true

ARCHENAV_BROWSER=1 go test -count=1 -run 'TestStudioInBrowser' -v ./cmd/navtool/ 2>&1 | grep -v '^=== RUN'
