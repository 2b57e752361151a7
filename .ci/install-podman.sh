#!/usr/bin/env bash
# Installs what the container tests need when missing: podman with the runc runtime (crun refuses hybrid
# cgroup hosts), debootstrap (the local node/redis base images), catatonit (podman --init) and uidmap.
# It writes no system configuration: tools/images/lib/podman.js generates a containers.conf (runtime runc,
# cgroupfs, nofile/nproc ulimits no higher than this host allows) and points podman at it with CONTAINERS_CONF;
# this script prints it. Runs as root in CI.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
need=()
for cmd in podman runc debootstrap; do command -v "$cmd" >/dev/null 2>&1 || need+=("$cmd"); done
if [ "${#need[@]}" -gt 0 ]; then
  echo "install-podman: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends podman runc debootstrap netavark aardvark-dns catatonit uidmap \
    fuse-overlayfs slirp4netns iptables
fi
podman --version
runc --version | head -1
node tools/images/lib/containers-conf.js
