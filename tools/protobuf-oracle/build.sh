#!/bin/sh
# Builds the oracle without the Go module proxy, from clones of its modules under $GOMODS
# (README.md lists them): writes oracle/go.local.mod (go.mod plus a replace per module, and an
# empty stand-in for each module of the graph that is never compiled), then builds with it.
set -eu
cd "$(dirname "$0")/oracle"
G=${GOMODS:?set GOMODS to the directory of the clones}
cp go.mod go.local.mod
export GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off
r() { go mod edit -modfile=go.local.mod -replace "$1=$G/$2"; }
r k8s.io/api api; r k8s.io/apimachinery apimachinery; r github.com/gogo/protobuf gogo
r github.com/google/gofuzz gofuzz; r k8s.io/klog/v2 klog; r k8s.io/utils utils; r sigs.k8s.io/json sigsjson
r sigs.k8s.io/structured-merge-diff/v4 smd; r sigs.k8s.io/yaml sigsyaml; r github.com/json-iterator/go jsoniter
r github.com/modern-go/reflect2 reflect2; r github.com/modern-go/concurrent concurrent; r golang.org/x/net xnet
r golang.org/x/text xtext; r gopkg.in/inf.v0 inf; r github.com/google/go-cmp gocmp; r github.com/go-logr/logr logr
r gopkg.in/yaml.v2 yamlv2
for i in $(seq 1 40); do
  out=$(go build -modfile=go.local.mod -o oracle . 2>&1) && { echo built tools/protobuf-oracle/oracle/oracle; exit 0; }
  mod=$(echo "$out" | grep -oE '[^[:space:]]+@[^:[:space:]]+: (module lookup disabled|reading)' | head -1 | sed 's/@.*//')
  [ -n "$mod" ] || { echo "$out"; exit 1; }
  d=$G/stub/$(echo "$mod" | tr / +); mkdir -p "$d"; printf 'module %s\n' "$mod" > "$d/go.mod"
  go mod edit -modfile=go.local.mod -replace "$mod=$d"
done
