// Micro-benchmark of MemoryStorage writes: `npx tsc -b packages/storage && node packages/storage/bench/memory-create.mjs [N] [watchers]`.
// Yields to the event loop every 100 writes, as a server between requests, so watchers keep up.
import { MemoryStorage } from '../dist/index.js';

const N = Number(process.argv[2] ?? 100_000);
const WATCHERS = Number(process.argv[3] ?? 0);

const event = (i) => {
  const namespace = `ns${i % 10}`;
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name: `pod-${i}.17a8b9c0d1e2f3a4`,
      namespace,
      uid: crypto.randomUUID(),
      creationTimestamp: '2024-01-01T00:00:00Z',
      managedFields: [
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'events.k8s.io/v1',
          time: '2024-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:note': {}, 'f:reason': {} },
        },
      ],
    },
    eventTime: '2024-01-01T00:00:00.000000Z',
    reportingController: 'kubelet',
    reportingInstance: 'node-1',
    action: 'Pulling',
    reason: 'Pulling',
    regarding: {
      kind: 'Pod',
      namespace,
      name: `pod-${i}`,
      uid: 'abc',
      apiVersion: 'v1',
      resourceVersion: '123',
      fieldPath: 'spec.containers{app}',
    },
    note: 'Pulling image "registry.example.com/app:v1.2.3"',
    type: 'Normal',
  };
};

const s = new MemoryStorage();
const objects = Array.from({ length: N }, (_, i) => event(i));
let seen = 0;
const watchers = await Promise.all(Array.from({ length: WATCHERS }, () => s.watch({ resource: 'events' })));
const loops = watchers.map(async (w) => {
  for await (const e of w) if (e.type !== 'BOOKMARK') seen++;
});

const yieldNow = () => new Promise((resolve) => setImmediate(resolve));
let t = performance.now();
for (let i = 0; i < N; i++) {
  if (i % 100 === 0) await yieldNow();
  const o = objects[i];
  await s.create({ resource: 'events', namespace: o.metadata.namespace, name: o.metadata.name }, o);
}
const ms = performance.now() - t;
console.log(`create: ${N} in ${ms.toFixed(0)} ms = ${Math.round((N / ms) * 1000)} ops/s with ${WATCHERS} watcher(s)`);

t = performance.now();
const page = await s.list({ resource: 'events' }, { limit: 500 });
console.log(
  `first list page after ${N} creates: ${(performance.now() - t).toFixed(1)} ms (remainingItemCount ${page.remainingItemCount})`,
);
t = performance.now();
await s.list({ resource: 'events' }, { limit: 500, continue: page.continue });
console.log(`next page: ${(performance.now() - t).toFixed(1)} ms`);

const U = Math.min(N, 20_000);
t = performance.now();
for (let i = 0; i < U; i++) {
  if (i % 100 === 0) await yieldNow();
  const o = objects[i];
  await s.guaranteedUpdate({ resource: 'events', namespace: o.metadata.namespace, name: o.metadata.name }, (cur) => ({
    ...cur,
    note: `n${i}`,
  }));
}
console.log(`guaranteedUpdate: ${Math.round((U / (performance.now() - t)) * 1000)} ops/s`);
await yieldNow();
await s.close();
await Promise.all(loops);
if (WATCHERS > 0) console.log(`events seen per watcher: ${seen / WATCHERS}`);
