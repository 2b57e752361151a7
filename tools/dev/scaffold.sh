#!/usr/bin/env bash
# Creates an empty workspace project: tools/dev/scaffold.sh packages/NAME "type:x,scope:y" [dep ...]
set -euo pipefail
usage='Usage: tools/dev/scaffold.sh packages/NAME "type:x,scope:y" [dep ...]
Creates an empty workspace project in packages/NAME (or apps/NAME): package.json, project.json with the Nx tags,
tsconfig.json referencing each dep (a packages/ folder name), src/index.ts.'
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  echo "$usage"
  exit 0
fi
if [ $# -lt 2 ]; then
  echo "$usage" >&2
  exit 2
fi
dir=$1; tags=$2; shift 2
name=$(basename "$dir")
mkdir -p "$dir/src"
tagjson=$(printf '%s' "$tags" | awk -F, '{for(i=1;i<=NF;i++){printf "%s\"%s\"", (i>1?", ":""), $i}}')
refs=""
deps=""
for d in "$@"; do
  refs="$refs${refs:+, }{ \"path\": \"../../packages/$d\" }"
  deps="$deps${deps:+, }\"@kevents/$d\": \"*\""
done
cat > "$dir/package.json" <<JSON
{
  "name": "@kevents/$name",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "sideEffects": false,
  "exports": {
    ".": { "types": "./dist/index.d.ts", "default": "./dist/index.js" }
  },
  "dependencies": { $deps }
}
JSON
cat > "$dir/project.json" <<JSON
{
  "name": "$name",
  "\$schema": "../../node_modules/nx/schemas/project-schema.json",
  "sourceRoot": "$dir/src",
  "projectType": "$( [[ $dir == apps/* ]] && echo application || echo library )",
  "tags": [$tagjson]
}
JSON
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist", "tsBuildInfoFile": "dist/.tsbuildinfo" },
  "include": ["src/**/*.ts"],
  "exclude": ["src/**/*.test.ts"],
  "references": [$refs]
}
JSON
[ -f "$dir/src/index.ts" ] || echo "export {};" > "$dir/src/index.ts"
