#!/usr/bin/env bash
# Installs Debian's tinyproxy (the real HTTP CONNECT proxy of the egress tests) when missing.
# Runs as root in CI; tests start their own tinyproxy on a free loopback port.
set -euo pipefail
if command -v tinyproxy >/dev/null 2>&1 || [ -x /usr/bin/tinyproxy ] || [ -x /usr/sbin/tinyproxy ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends tinyproxy
# The packaged service is not needed.
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl stop tinyproxy >/dev/null 2>&1 || true; fi
