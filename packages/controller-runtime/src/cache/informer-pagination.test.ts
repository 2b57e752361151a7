import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '@kevents/api';
import { ResourceClient } from '../client/resource-client.js';
import { RestClient } from '../client/rest-client.js';
import { eventsResource, testKubeConfig } from '../testing/index.js';
import { Informer } from './informer.js';

/**
 * A hostile source whose paged lists never end: each list request is answered by `page`, given
 * the request's continue token; the test decides how. Watches are held open.
 */
let server: Server;
let base = '';
let lists = 0;
let page: (token: string) => { items: Event[]; continue?: string } = () => ({ items: [] });

const event = (name: string): Event =>
  ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5' },
    eventTime: '2026-01-01T00:00:00.000000Z',
    reportingController: 'x',
    reportingInstance: 'x',
    action: 'A',
    reason: 'R',
    type: 'Normal',
  }) as Event;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('watch') === 'true') {
      res.write(''); // held open until the informer stops
      return;
    }
    lists++;
    const p = page(url.searchParams.get('continue') ?? '');
    res.end(
      JSON.stringify({
        kind: 'EventList',
        apiVersion: 'events.k8s.io/v1',
        metadata: { resourceVersion: '5', ...(p.continue ? { continue: p.continue } : {}) },
        items: p.items,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Runs an informer until its first error (or `ms`); what it asked for and what it cached. */
async function firstError(ms: number): Promise<{ lists: number; errors: string[]; cached: number }> {
  lists = 0;
  const errors: string[] = [];
  let seen: () => void = () => undefined;
  const errored = new Promise<void>((r) => (seen = r));
  const informer = new Informer<Event>(
    new ResourceClient<Event>(new RestClient(testKubeConfig(base)), eventsResource),
    {
      pageSize: 2,
      onError: (e) => {
        errors.push((e as Error).message);
        seen();
      },
    },
  );
  informer.start();
  await Promise.race([errored, new Promise((r) => setTimeout(r, ms))]);
  const r = { lists, errors, cached: informer.indexer.list().length };
  server.closeAllConnections();
  await informer.stop();
  return r;
}

describe('informer against a source whose paged list never ends', () => {
  it('stops at a continue token the server gave before (before: it listed until memory ran out)', async () => {
    // The same page and token forever; after 200 pages the old code got to the end with 400 copies.
    page = (token) => ({
      items: token === '' ? [event('a'), event('b')] : [event(`c${lists}`), event(`d${lists}`)],
      ...(lists < 200 ? { continue: 'loop' } : {}),
    });
    const r = await firstError(10_000);
    expect(r.errors[0]).toBe(
      'list of events.events.k8s.io in all namespaces: the server answered a continue token it gave before: the paged list would never end',
    );
    expect(r.lists).toBeLessThanOrEqual(3);
    expect(r.cached).toBe(0);
  });

  it('stops at an object the same list gave before (new tokens, the same page)', async () => {
    page = () => ({ items: [event('a'), event('b')], ...(lists < 200 ? { continue: `t${lists}` } : {}) });
    const r = await firstError(10_000);
    expect(r.errors[0]).toBe('list of events.events.k8s.io in all namespaces: the server listed ns/a twice');
    expect(r.lists).toBeLessThanOrEqual(3);
    expect(r.cached).toBe(0);
  });

  it('still lists a well-behaved paged source, empty pages included', async () => {
    page = (token) =>
      token === ''
        ? { items: [event('a'), event('b')], continue: 't1' }
        : token === 't1'
          ? { items: [], continue: 't2' }
          : { items: [event('c')] };
    const informer = new Informer<Event>(
      new ResourceClient<Event>(new RestClient(testKubeConfig(base)), eventsResource),
      { pageSize: 2 },
    );
    informer.start();
    await informer.waitForSync();
    expect(
      informer.indexer
        .list()
        .map((e) => e.metadata.name)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    server.closeAllConnections();
    await informer.stop();
  });
});
