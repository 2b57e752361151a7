/**
 * client-node helpers for the end-to-end tests (src/e2e): imported by the tests and run in Jest's
 * process (SWC strips the types), never built into dist (see tsconfig.json and tsconfig.test.json).
 */
import * as k8s from '@kubernetes/client-node';

/** A client-node config for a plain-HTTP kevents server. */
export function kubeConfig(server: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

/** An events.k8s.io/v1 Event that passes validation. */
export function sampleEvent(name: string, namespace: string, note = `event ${name}`): k8s.EventsV1Event {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace },
    eventTime: new k8s.V1MicroTime('2026-01-02T03:04:05.123Z'),
    reportingController: 'example.com/tests',
    reportingInstance: 'tests-1',
    action: 'Tested',
    reason: 'Testing',
    type: 'Normal',
    note,
    regarding: { kind: 'Pod', name: 'web-0', namespace },
  } as k8s.EventsV1Event;
}

/**
 * A minimal informer over one namespace's events: list, then watch from the list's
 * resourceVersion; when the watch ends (error or not), resume from the last resourceVersion seen,
 * and relist when that fails with 410. Keeps a name -> resourceVersion cache and every event seen.
 */
export class MiniInformer {
  readonly cache = new Map<string, string>();
  readonly events: { type: string; name: string; rv: number }[] = [];
  relists = 0;
  resumes = 0;
  private lastRv = '';
  private stopped = false;
  private abort: AbortController | undefined;
  private readonly kc: k8s.KubeConfig;
  private readonly api: k8s.EventsV1Api;
  private readonly namespace: string;
  private loop: Promise<void> | undefined;

  constructor(server: string, namespace: string) {
    this.kc = kubeConfig(server);
    this.api = this.kc.makeApiClient(k8s.EventsV1Api);
    this.namespace = namespace;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await this.loop;
  }

  private async relist(): Promise<void> {
    const l = await this.api.listNamespacedEvent({ namespace: this.namespace });
    this.cache.clear();
    for (const e of l.items) this.cache.set(e.metadata!.name!, e.metadata!.resourceVersion!);
    this.lastRv = l.metadata!.resourceVersion!;
    this.relists++;
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) await this.relist();
        needList = false;
        let expired = false;
        await new Promise<void>((resolve, reject) => {
          const w = new k8s.Watch(this.kc);
          w.watch(
            `/apis/events.k8s.io/v1/namespaces/${this.namespace}/events`,
            { resourceVersion: this.lastRv, allowWatchBookmarks: true },
            (type: string, obj: k8s.EventsV1Event & k8s.V1Status) => {
              if (type === 'ERROR') {
                if (obj.code === 410) expired = true;
                return;
              }
              const rv = obj.metadata!.resourceVersion!;
              this.lastRv = rv;
              if (type === 'BOOKMARK') return;
              const name = obj.metadata!.name!;
              this.events.push({ type, name, rv: Number(rv) });
              if (type === 'DELETED') this.cache.delete(name);
              else this.cache.set(name, rv);
            },
            () => resolve(),
          ).then((c) => (this.abort = c), reject);
        });
        if (expired) needList = true;
        else this.resumes++;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, 20));
    }
  }
}
