#!/usr/bin/env bash
# Installs Debian's python3-kubernetes (the Python client 22.6, for the system Python), whose
# dynamic client apps/apiserver/src/e2e/client-node-apply.test.ts drives against kevents
# (`server_side_apply`).
set -euo pipefail
if /usr/bin/python3 -c 'import kubernetes.dynamic' 2>/dev/null; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends python3-kubernetes >/dev/null
/usr/bin/python3 -c 'import kubernetes; print("python3-kubernetes", kubernetes.__version__)'
