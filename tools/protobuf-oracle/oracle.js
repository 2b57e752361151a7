// Runs the Go oracle over many requests at once (one JSON line each) and returns its answers.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const oraclePath = new URL('./oracle/oracle', import.meta.url).pathname;

/** Sends requests to the oracle; answers in the same order. */
export function ask(requests, oracle = oraclePath) {
  if (!existsSync(oracle)) {
    console.error(`no oracle at ${oracle}: build it first (tools/protobuf-oracle/README.md)`);
    process.exit(2);
  }
  if (requests.length > 5000) {
    const out = [];
    for (let i = 0; i < requests.length; i += 5000) out.push(...ask(requests.slice(i, i + 5000), oracle));
    return out;
  }
  if (requests.length === 0) return [];
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const res = spawnSync(oracle, [], { input, maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`oracle failed: ${res.stderr}`);
  const lines = res.stdout.toString().trim().split('\n');
  if (lines.length !== requests.length) throw new Error(`oracle answered ${lines.length} of ${requests.length}`);
  return lines.map((l) => JSON.parse(l));
}
