#!/usr/bin/env node
// `npm start`: kevents-apiserver on http://127.0.0.1:8080 with the embedded (in-process) store,
// and kevents-controller beside it (series + retention, leader-elected, probes on :8081), started
// once the API server answers. Extra arguments pass through to the apiserver:
// `npm start -- --storage=redis://127.0.0.1:6379`; a second one beside the first:
// `KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=9090`.
// KEVENTS_CONTROLLER_PROBE_ADDRESS moves the controller's probes (default 127.0.0.1:8081; port 0
// picks a free one), KEVENTS_CONTROLLER_ARGS adds controller flags (space-separated), for example
// `KEVENTS_CONTROLLER_ARGS='--mirror-source=prod=/home/me/.kube/prod.yaml' npm start`.
// `npm start -- --help` prints this and the apiserver's flags, and starts nothing.
import './node-version.js';
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));
const controllerMain = fileURLToPath(new URL('../../apps/controller/dist/main.js', import.meta.url));
const passed = process.argv.slice(2);

if (passed.includes('--help') || passed.includes('-h')) {
  console.log(`Usage: npm start [-- <kevents-apiserver flags>]

Starts kevents-apiserver on http://127.0.0.1:8080 (plain HTTP, loopback only, the embedded store
unless --storage says otherwise) and, once it answers, kevents-controller beside it (series,
retention, leader election; its health, readiness and metrics on http://127.0.0.1:8081).
npm start's own defaults: --insecure-port=8080 --secure-port=0 --log-format=text; the flags
given after -- come after them and win.

Environment:
  KEVENTS_CONTROLLER_ARGS           more kevents-controller flags, space-separated
                                    (node apps/controller/dist/main.js --help lists them)
  KEVENTS_CONTROLLER_PROBE_ADDRESS  the controller's probe address (default 127.0.0.1:8081; port 0
                                    picks a free one)

Examples:
  npm start -- --storage=redis://127.0.0.1:6379
  KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=9090   (beside another npm start)
  KEVENTS_CONTROLLER_ARGS='--mirror-source=prod=/home/me/.kube/prod.yaml' npm start

kevents-apiserver's flags:
`);
  const help = spawnSync(process.execPath, [main, '--help'], { stdio: 'inherit' });
  process.exit(help.status ?? 1);
}

const args = ['--insecure-port=8080', '--secure-port=0', '--log-format=text', ...passed];
/** The last `--insecure-port` of `list`, as `--insecure-port=N` or `--insecure-port N`. */
function insecurePort(list) {
  let value = '';
  for (let i = 0; i < list.length; i++) {
    if (list[i].startsWith('--insecure-port=')) value = list[i].slice('--insecure-port='.length);
    else if (list[i] === '--insecure-port' && i + 1 < list.length) value = list[++i];
  }
  return Number(value);
}
const port = insecurePort(args);
const url = `http://127.0.0.1:${port}`;

/** Whether something accepts connections on 127.0.0.1:`p` already. */
const inUse = (p) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: p });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

if (port > 0 && (await inUse(port))) {
  console.error(
    `kevents: 127.0.0.1:${port} is in use already (another npm start?); stop it, or pick other ports: KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=9090`,
  );
  process.exit(1);
}
const probe = process.env.KEVENTS_CONTROLLER_PROBE_ADDRESS || '127.0.0.1:8081';
const probePort = Number(probe.slice(probe.lastIndexOf(':') + 1));
if (port > 0 && probePort > 0 && (await inUse(probePort))) {
  console.error(
    `kevents: the controller's probe address ${probe} is in use already (another npm start?); stop it, or move it: KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=${port}`,
  );
  process.exit(1);
}
if (port > 0)
  console.log(`kevents: starting the API server on ${url} (embedded store unless --storage says otherwise)`);
const child = spawn(process.execPath, [main, ...args], { stdio: 'inherit' });
/** @type {import('node:child_process').ChildProcess | undefined} */
let controller;
let stopping = false;

const running = (p) => p !== undefined && p.exitCode === null && p.signalCode === null;
// The controller stops first, so that it can still release its lease on the API server.
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    stopping = true;
    if (!running(controller)) child.kill(sig);
    else {
      controller.once('exit', () => child.kill(sig));
      controller.kill(sig);
    }
  });
child.on('exit', (code, signal) => {
  const exit = () => process.exit(code ?? (signal ? 0 : 1));
  if (!running(controller)) exit();
  else {
    controller.once('exit', exit);
    controller.kill('SIGTERM');
  }
});

/** Resolves once the API server answers anything on `url` (it may ask for credentials); false if it exited first. */
async function serverAnswers() {
  while (child.exitCode === null && child.signalCode === null && !stopping) {
    const answered = await fetch(`${url}/readyz`).then(
      () => true,
      () => false,
    );
    if (answered) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const controllerArgs = (process.env.KEVENTS_CONTROLLER_ARGS ?? '').split(/\s+/).filter(Boolean);
if (port > 0 && (await serverAnswers())) {
  // Port 0: the controller picks a free port and logs it ("serving /healthz /readyz /metrics address=...").
  const probeAt =
    probe === '0'
      ? 'health, readiness and metrics off'
      : probePort > 0
        ? `health, readiness and metrics on http://${probe}`
        : `health, readiness and metrics on a free port of ${probe.slice(0, probe.lastIndexOf(':')) || 'every address'}, named in its log`;
  console.log(`kevents: starting kevents-controller (${probeAt})`);
  controller = spawn(
    process.execPath,
    [controllerMain, `--server=${url}`, `--health-probe-bind-address=${probe}`, '--log-format=text', ...controllerArgs],
    { stdio: 'inherit' },
  );
  controller.on('exit', (code, signal) => {
    if (!stopping && child.exitCode === null && !signal) console.error(`kevents: the controller exited (${code})`);
  });
} else if (port === 0) {
  console.log('kevents: --insecure-port=0: kevents-controller is not started (run it with --kubeconfig)');
}
