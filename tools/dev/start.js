#!/usr/bin/env node
// `npm start`: kevents-apiserver on http://127.0.0.1:8080 with the embedded (in-process) store,
// and kevents-controller beside it (series + retention, leader-elected, probes on :8081).
// Extra arguments pass through to the apiserver: `npm start -- --storage=redis://127.0.0.1:6379`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));
const controllerMain = fileURLToPath(new URL('../../apps/controller/dist/main.js', import.meta.url));
const args = ['--insecure-port=8080', '--secure-port=0', '--log-format=text', ...process.argv.slice(2)];
console.log('kevents: starting the API server on http://127.0.0.1:8080 (embedded store)');
console.log('kevents: point kubectl at it with:');
console.log('  kubectl --server http://127.0.0.1:8080 get events.events.k8s.io -A');
const child = spawn(process.execPath, [main, ...args], { stdio: 'inherit' });
console.log('kevents: starting kevents-controller (health, readiness and metrics on http://127.0.0.1:8081)');
const controller = spawn(
  process.execPath,
  [controllerMain, '--server=http://127.0.0.1:8080', '--health-probe-bind-address=127.0.0.1:8081', '--log-format=text'],
  { stdio: 'inherit' },
);
// The controller stops first, so that it can still release its lease on the API server.
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    stopping = true;
    if (controller.exitCode !== null || controller.signalCode !== null) child.kill(sig);
    else {
      controller.once('exit', () => child.kill(sig));
      controller.kill(sig);
    }
  });
controller.on('exit', (code, signal) => {
  if (!stopping && child.exitCode === null && !signal) console.error(`kevents: the controller exited (${code})`);
});
child.on('exit', (code, signal) => {
  controller.kill('SIGTERM');
  controller.once('exit', () => process.exit(code ?? (signal ? 0 : 1)));
  if (controller.exitCode !== null || controller.signalCode !== null) process.exit(code ?? (signal ? 0 : 1));
});
