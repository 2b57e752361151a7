#!/usr/bin/env node
// Run by `npm ci`/`npm install` (preinstall) and `npm start` (prestart), and imported first by start.js: on a Node.js older than the
// root package.json's `engines` (undici needs 22.19), stop with one line before building or
// starting anything, instead of a build followed by the binaries' own refusal.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const [wantMajor = 0, wantMinor = 0] = String(manifest.engines.node).replace('>=', '').split('.').map(Number);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  process.stderr.write(
    `kevents: Node.js ${wantMajor}.${wantMinor} or newer is needed (Node 24 LTS recommended; \`source tools/node24.sh\` installs it); this is ${process.versions.node}\n`,
  );
  process.exit(1);
}
