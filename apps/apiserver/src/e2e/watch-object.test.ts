/**
 * The deprecated per-object watch paths kube-apiserver still serves
 * (`/api/v1/watch/namespaces/NS/events/NAME`, `/apis/events.k8s.io/v1/watch/...`), which Ruby
 * kubeclient's `watch_events(name:)` uses: the HTTP shape, the authorizer's view of it, OpenAPI,
 * and the real kubeclient gem when Debian's ruby-kubeclient is installed
 * (.ci/install-ruby-kubeclient.sh; skipped with the reason printed otherwise, unless
 * KEVENTS_RUBY_KUBECLIENT=required).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestAttributes } from '@kevents/api';
import { request, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const seen: RequestAttributes[] = [];

beforeAll(async () => {
  srv = await startTestServer({
    authorizer: {
      name: 'recorder',
      authorize: (attrs) => {
        seen.push(attrs);
        return { decision: 'Allow', reason: '' };
      },
    },
  });
});
afterAll(async () => {
  await srv?.close();
});

/** A watch stream read line by line: `next(predicate)` waits for a line that satisfies it. */
async function openWatch(url: string) {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  const pump = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          lines.push(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
        wake?.();
      }
    } catch {
      // aborted
    }
  })();
  const events = (): { type: string; object: { metadata: { name: string } } }[] =>
    lines.map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
  return {
    status: res.status,
    events,
    async until(pred: (evs: ReturnType<typeof events>) => boolean, ms = 5000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!pred(events())) {
        if (Date.now() > deadline) throw new Error(`watch: timed out; got ${JSON.stringify(lines)}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
    },
    async close(): Promise<void> {
      abort.abort();
      await pump;
    },
  };
}

describe('per-object watch paths', () => {
  it.each([
    ['core v1', '/api/v1', 'core'],
    ['events.k8s.io/v1', '/apis/events.k8s.io/v1', 'events'],
  ])('%s: /watch/namespaces/NS/events/NAME streams that object only', async (_label, prefix, ns) => {
    const base = `${srv.url}/apis/events.k8s.io/v1/namespaces/${ns}/events`;
    await request(base, { method: 'POST', body: sampleEvent('web-0.started', ns) });
    await request(base, { method: 'POST', body: sampleEvent('other', ns) });
    seen.length = 0;
    const w = await openWatch(`${srv.url}${prefix}/watch/namespaces/${ns}/events/web-0.started`);
    try {
      expect(w.status).toBe(200);
      await w.until((evs) => evs.some((e) => e.type === 'ADDED'));
      expect(seen.map((a) => [a.verb, a.resource, a.namespace, a.name])).toEqual([
        ['watch', 'events', ns, 'web-0.started'],
      ]);
      await request(`${base}/other`, {
        method: 'PATCH',
        body: { metadata: { labels: { touched: 'yes' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await request(`${base}/web-0.started`, {
        method: 'PATCH',
        body: { metadata: { labels: { touched: 'yes' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await request(`${base}/web-0.started`, { method: 'DELETE' });
      await w.until((evs) => evs.some((e) => e.type === 'DELETED'));
      expect(w.events().map((e) => [e.type, e.object.metadata.name])).toEqual([
        ['ADDED', 'web-0.started'],
        ['MODIFIED', 'web-0.started'],
        ['DELETED', 'web-0.started'],
      ]);
    } finally {
      await w.close();
    }
  });

  it("a field selector must pin the same name (kube's text), or may repeat it", async () => {
    const bad = await request(
      `${srv.url}/api/v1/watch/namespaces/core/events/web-0.started?fieldSelector=metadata.name%3Dother`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: "fieldSelector metadata.name doesn't match requested name",
    });
    const other = await request(`${srv.url}/api/v1/watch/namespaces/core/events/x?fieldSelector=reason%3DTesting`);
    expect(other.status).toBe(400);
    const same = await openWatch(
      `${srv.url}/api/v1/watch/namespaces/core/events/other?fieldSelector=metadata.name%3Dother&timeoutSeconds=1`,
    );
    try {
      expect(same.status).toBe(200);
      await same.until((evs) => evs.some((e) => e.object.metadata.name === 'other'));
    } finally {
      await same.close();
    }
  });

  it('other methods are 405; OpenAPI v2 describes the paths with kube-apiserver operation ids', async () => {
    const put = await request(`${srv.url}/api/v1/watch/namespaces/core/events/x`, { method: 'PUT', body: {} });
    expect(put.status).toBe(405);
    const v2 = (await request(`${srv.url}/openapi/v2`)).body as {
      paths: Record<string, { get?: { operationId: string; 'x-kubernetes-action': string } }>;
    };
    expect(v2.paths['/api/v1/watch/namespaces/{namespace}/events/{name}']?.get).toMatchObject({
      operationId: 'watchCoreV1NamespacedEvent',
      'x-kubernetes-action': 'watch',
    });
    expect(v2.paths['/apis/events.k8s.io/v1/watch/namespaces/{namespace}/events/{name}']?.get?.operationId).toBe(
      'watchEventsV1NamespacedEvent',
    );
    expect(v2.paths['/apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases/{name}']?.get?.operationId).toBe(
      'watchCoordinationV1NamespacedLease',
    );
  });
});

const hasKubeclient = (() => {
  try {
    execFileSync('ruby', ['-e', 'require "kubeclient"'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const rubyRequired = process.env['KEVENTS_RUBY_KUBECLIENT'] === 'required';
if (!hasKubeclient && !rubyRequired) {
  console.log(
    "watch-object: Ruby kubeclient skipped: `ruby -e 'require \"kubeclient\"'` fails; install Debian's ruby-kubeclient (.ci/install-ruby-kubeclient.sh)",
  );
}

(hasKubeclient || rubyRequired ? describe : describe.skip)('Ruby kubeclient (Debian ruby-kubeclient)', () => {
  it('watch_events(namespace:, name:) sees the object added, modified and deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-kubeclient-'));
    const script = join(dir, 'watch.rb');
    writeFileSync(
      script,
      [
        'require "kubeclient"',
        'client = Kubeclient::Client.new(ARGV[0] + "/api", "v1")',
        'client.watch_events(namespace: ARGV[1], name: ARGV[2]).each do |notice|',
        '  puts "#{notice.type} #{notice.object.metadata.name}"',
        '  STDOUT.flush',
        'end',
        '',
      ].join('\n'),
    );
    const base = `${srv.url}/apis/events.k8s.io/v1/namespaces/ruby/events`;
    await request(base, { method: 'POST', body: sampleEvent('db.synced', 'ruby') });
    await request(base, { method: 'POST', body: sampleEvent('noise', 'ruby') });
    const child = spawn('ruby', [script, srv.url, 'ruby', 'db.synced'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitForOutput(child, (out) => out.includes('ADDED db.synced'));
      const done = waitForOutput(child, (out) => out.includes('DELETED db.synced'));
      await request(`${base}/noise`, { method: 'DELETE' });
      await request(`${base}/db.synced`, {
        method: 'PATCH',
        body: { metadata: { labels: { a: 'b' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await request(`${base}/db.synced`, { method: 'DELETE' });
      const out = await done;
      expect(out.trim().split('\n')).toEqual(['MODIFIED db.synced', 'DELETED db.synced']);
    } finally {
      child.kill();
    }
  });
});
