#!/usr/bin/env bash
# Installs Debian's ruby-kubeclient (Ruby kubeclient 4.9), which
# apps/apiserver/src/e2e/watch-object.test.ts drives against kevents (`watch_events(name:)`).
set -euo pipefail
if ruby -e 'require "kubeclient"' 2>/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq ruby-kubeclient >/dev/null
ruby -e 'require "kubeclient"; puts "ruby-kubeclient #{Kubeclient::VERSION}"'
