#!/usr/bin/env node
// `npm start`: kevents-apiserver on http://127.0.0.1:8080 with the embedded (in-process) store.
// Extra arguments pass through: `npm start -- --storage=redis://127.0.0.1:6379`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));
const args = ['--insecure-port=8080', '--secure-port=0', '--log-format=text', ...process.argv.slice(2)];
console.log('kevents: starting the API server on http://127.0.0.1:8080 (embedded store)');
console.log('kevents: point kubectl at it with:');
console.log('  kubectl --server http://127.0.0.1:8080 get events.events.k8s.io -A');
const child = spawn(process.execPath, [main, ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
