import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '@kevents/api';
import { ResourceClient } from '../client/resource-client.js';
import { RestClient } from '../client/rest-client.js';
import { eventsResource, testKubeConfig } from '../testing/index.js';
import { Informer } from './informer.js';

/** A broken source: lists answer an empty list; each test decides how watches are answered. */
let server: Server;
let base = '';
let lists = 0;
let watches = 0;
let watchAnswer: (res: ServerResponse, url: URL) => void = (res) => res.end();

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    if (!/[?&]watch=true/.test(req.url ?? '')) {
      lists++;
      res.end(
        JSON.stringify({
          kind: 'EventList',
          apiVersion: 'events.k8s.io/v1',
          metadata: { resourceVersion: '5' },
          items: [],
        }),
      );
      return;
    }
    watches++;
    watchAnswer(res, new URL(req.url ?? '/', 'http://x'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Runs an informer against the server for `ms`; the lists and watches it asked for. */
async function runFor(ms: number): Promise<{ lists: number; watches: number; errors: string[] }> {
  lists = 0;
  watches = 0;
  const errors: string[] = [];
  const informer = new Informer<Event>(
    new ResourceClient<Event>(new RestClient(testKubeConfig(base)), eventsResource),
    {
      onError: (e) => errors.push((e as Error).message),
    },
  );
  informer.start();
  await new Promise((r) => setTimeout(r, ms));
  await informer.stop();
  return { lists, watches, errors };
}

describe('informer against a source that ends every watch at once', () => {
  it('backs off after a watch that ends in under a second with no line, as client-go ("very short watch")', async () => {
    // Before: ~1,200 watches in 3 s, a full core.
    watchAnswer = (res) => res.end();
    const r = await runFor(1_500);
    expect(r.watches).toBeGreaterThanOrEqual(2);
    expect(r.watches).toBeLessThanOrEqual(8);
    expect(r.lists).toBe(1);
    expect(r.errors[0]).toMatch(/^very short watch: events\.events\.k8s\.io in all namespaces: Unexpected watch close/);
  });

  it('backs off before each list when every watch answers 410', async () => {
    // Before: ~690 lists and as many watches in 3 s.
    const gone = {
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' },
    };
    watchAnswer = (res) => res.end(`${JSON.stringify(gone)}\n`);
    const r = await runFor(1_500);
    expect(r.lists).toBeGreaterThanOrEqual(2);
    expect(r.lists).toBeLessThanOrEqual(8);
  });

  it('resumes at once after a watch that delivered lines', async () => {
    const bookmark = {
      type: 'BOOKMARK',
      object: { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { resourceVersion: '6' } },
    };
    watchAnswer = (res) => res.end(`${JSON.stringify(bookmark)}\n`);
    const r = await runFor(500);
    expect(r.lists).toBe(1);
    expect(r.watches).toBeGreaterThan(20);
    expect(r.errors).toEqual([]);
  });

  it('lists again when the server refuses a watch (a 400 for a resourceVersion a bookmark gave), as client-go does', async () => {
    // Before: it watched from the refused resourceVersion forever and never listed again.
    const bookmark = {
      type: 'BOOKMARK',
      object: { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { resourceVersion: 'zzz' } },
    };
    const refused = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 400,
      reason: 'BadRequest',
      message: 'bad rv',
    };
    watchAnswer = (res, url) => {
      if (url.searchParams.get('resourceVersion') === 'zzz') {
        res.statusCode = 400;
        res.end(JSON.stringify(refused));
      } else res.end(`${JSON.stringify(bookmark)}\n`);
    };
    const r = await runFor(1_500);
    expect(r.lists).toBeGreaterThanOrEqual(2);
    expect(r.lists).toBeLessThanOrEqual(8);
    expect(r.errors.some((e) => /^400 BadRequest: bad rv/.test(e))).toBe(true);
  });

  it('lists again after an ERROR event other than 410, as client-go does', async () => {
    const internal = {
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500, reason: 'InternalError' },
    };
    watchAnswer = (res) => res.end(`${JSON.stringify(internal)}\n`);
    const r = await runFor(1_000);
    expect(r.lists).toBeGreaterThanOrEqual(2);
    expect(r.lists).toBeLessThanOrEqual(8);
  });
});
