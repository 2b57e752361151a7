/**
 * A leader-elected controller process for the leader-election tests (run from dist as
 * `node dist/testing/leader-child.js SERVER NAMESPACE IDENTITY LEASE_MS RENEW_MS RETRY_MS`).
 * While it leads, it stamps every event of NAMESPACE that has no `test/handled-by` annotation
 * with its identity and the time (a PUT with the cached resourceVersion), and prints one
 * `reconciled <name>` line per write, so a test can check from the writes who reconciled when.
 */
import { microTimeNow, type Event, type Lease } from '@kevents/api';
import { Controller } from '../controller/controller.js';
import { Informer } from '../cache/informer.js';
import { objectKey } from '../cache/indexer.js';
import { Manager } from '../manager/manager.js';
import { ResourceClient } from '../client/resource-client.js';
import { RestClient } from '../client/rest-client.js';
import { isConflict } from '../errors.js';
import { eventsResource, leasesResource, testKubeConfig } from './clients.js';

const [server, namespace, identity, leaseMs, renewMs, retryMs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const kc = testKubeConfig(server);
const events = new ResourceClient<Event>(new RestClient(kc), eventsResource);
const informer = new Informer<Event>(events, { namespace });
const reconciler = {
  async reconcile(key: string) {
    const e = informer.indexer.get(key);
    if (!e || e.metadata.annotations?.['test/handled-by']) return {};
    try {
      await events.update({
        ...e,
        metadata: {
          ...e.metadata,
          annotations: { ...e.metadata.annotations, 'test/handled-by': identity, 'test/handled-at': microTimeNow() },
        },
      });
      process.stdout.write(`reconciled ${e.metadata.name}\n`);
    } catch (err) {
      if (isConflict(err)) process.stdout.write(`conflict ${e.metadata.name}\n`);
      throw err;
    }
    return {};
  },
};
const controller = new Controller({ name: 'stamp', reconciler });
informer.addEventHandler({
  onAdd: (e) => controller.enqueue(objectKey(e)),
  onUpdate: (_o, e) => controller.enqueue(objectKey(e)),
});
const manager = new Manager({
  probeAddress: '127.0.0.1:0',
  log: (msg, fields) => process.stdout.write(`${msg} ${JSON.stringify(fields ?? {})}\n`),
  leaderElection: {
    leases: new ResourceClient<Lease>(new RestClient(kc, { timeoutMs: 1000 }), leasesResource),
    namespace,
    name: 'stamp-leader',
    identity,
    leaseDurationMs: Number(leaseMs),
    renewDeadlineMs: Number(renewMs),
    retryPeriodMs: Number(retryMs),
  },
});
manager.addInformer(informer);
manager.addController(controller);
manager.stopOnSignals();
await manager.start();
