#!/usr/bin/env node
// `npm run bench`: every benchmark in sequence, each against baselines measured in the same run.
// Pass --only=<name> (memory, memory-redis, redis, authn, authz, aggregated, tracing, controller, mirror,
// lists, sql, user) to run one; other flags go
// through (e.g. --seconds=5).
// --compare=<git ref> adds compare.js: server CPU per create of this build against that ref's build,
// side by side (`npm run bench -- --only=compare --compare=main` for just that).
import './lib/help.js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
const rest = process.argv.slice(2).filter((a) => !a.startsWith('--only='));
const compare = process.argv.some((a) => a.startsWith('--compare='));
const suites = [
  ['memory', 'memory.js'],
  ['memory-redis', 'memory.js', '--store=redis'],
  ['redis', 'redis.js'],
  ['authn', 'authn.js'],
  ['authz', 'authz.js'],
  ['aggregated', 'aggregated.js'],
  ['tracing', 'tracing.js'],
  ['controller', 'controller.js'],
  ['mirror', 'mirror.js'],
  ['lists', 'lists.js'],
  ['sql', 'sql.js'],
  ['user', 'user.js'],
  ...(compare ? [['compare', 'compare.js']] : []),
];
let failed = false;
if (only === 'compare' && !compare) {
  console.error('--only=compare needs --compare=<git ref> (the baseline build)');
  failed = true;
}
for (const [name, file, ...fixed] of suites) {
  if (only && only !== name) continue;
  const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
  if (!existsSync(path)) continue;
  console.log(`\n### ${name}\n`);
  const r = spawnSync(process.execPath, [path, ...fixed, ...rest], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
