#!/usr/bin/env bash
# Installs Debian's chromium when missing: the web view's browser tests (apps/ui) drive it headless through
# playwright-core (which downloads no browser of its own). Runs as root in CI.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
