#!/usr/bin/env bash
# Installs redis-server (with redis-cli and redis-benchmark, from redis-tools) when missing.
# Sentinel runs as `redis-server <conf> --sentinel`, so the separate redis-sentinel package is
# optional; it is installed too when the distribution has it. Runs as root in CI.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && command -v redis-benchmark >/dev/null 2>&1; then
  redis-server --version
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends redis-server redis-tools
if apt-cache show redis-sentinel >/dev/null 2>&1; then
  $SUDO apt-get install -y --no-install-recommends redis-sentinel || true
fi
# The packaged service is not needed: tests start their own servers on free loopback ports.
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl stop redis-server >/dev/null 2>&1 || true; fi
redis-server --version
