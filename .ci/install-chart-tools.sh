#!/usr/bin/env bash
# Installs what the chart tests need when missing: Go and the Go sources the test renderer builds
# against in GOPATH mode (sprig, gojsonschema, sigs.k8s.io/yaml; Debian packages, no module proxy).
# podman for the kube-play test comes from .ci/install-podman.sh. Runs as root in CI.
set -euo pipefail
pkgs=()
command -v go >/dev/null 2>&1 || pkgs+=(golang-go)
[ -d /usr/share/gocode/src/github.com/Masterminds/sprig ] || pkgs+=(golang-github-masterminds-sprig-dev)
[ -d /usr/share/gocode/src/github.com/xeipuuv/gojsonschema ] || pkgs+=(golang-github-xeipuuv-gojsonschema-dev)
[ -d /usr/share/gocode/src/sigs.k8s.io/yaml ] || pkgs+=(golang-k8s-sigs-yaml-dev)
if [ "${#pkgs[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${pkgs[@]}"
fi
go version
