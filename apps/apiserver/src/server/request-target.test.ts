import { connect } from 'node:net';
import { connect as h2connect } from 'node:http2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { parseRequestTarget } from '@kevents/apiserver';
import type { RequestInfo } from '@kevents/apiserver';
import { MemoryStorage } from '@kevents/storage';
import { buildServer } from './app.js';
import type { KeventsServer } from './app.js';
import { servingCert } from './tls.js';
import { sampleEvent } from '../testing/server.js';

/**
 * alice may get, create and delete single events (and read leases) in team-a, and get any path
 * but /metrics; everything else is denied. Every question is recorded with the probe id header.
 */
class RecordingAuthorizer implements Authorizer {
  readonly name = 'recording';
  readonly asked: RequestAttributes[] = [];
  open = false;
  authorize(a: RequestAttributes): Decision {
    this.asked.push(a);
    const allow = this.open
      ? true
      : a.isResourceRequest
        ? a.namespace === 'team-a' && a.name !== '' && ['get', 'create', 'delete', 'patch'].includes(a.verb)
        : a.verb === 'get' && a.path !== '/metrics';
    return allow ? { decision: 'Allow', reason: '' } : { decision: 'Deny', reason: 'not in the table' };
  }
}

interface Routed {
  readonly info: RequestInfo;
  readonly params: Record<string, string>;
  readonly route: string;
  readonly resource: string | undefined;
}

let server: KeventsServer;
let storage: MemoryStorage;
let port: number;
let securePort: number;
let secure: KeventsServer;
const authz = new RecordingAuthorizer();
const routed: Routed[] = [];

function record(s: KeventsServer): void {
  s.app.addHook('preHandler', (req, _reply, done) => {
    const rest = (req.routeOptions.config as { rest?: { resource: string } }).rest;
    routed.push({
      info: req.requestInfo,
      params: { ...(req.params as Record<string, string>) },
      route: req.routeOptions.url ?? '',
      resource: rest?.resource,
    });
    done();
  });
}

beforeAll(async () => {
  storage = new MemoryStorage();
  server = buildServer({ storage, authorizer: authz });
  record(server);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as { port: number }).port;
  const tls = await servingCert('', '', '127.0.0.1');
  secure = buildServer({ storage, authorizer: authz, https: { key: tls.key, cert: tls.cert } });
  record(secure);
  await secure.app.listen({ host: '127.0.0.1', port: 0 });
  securePort = (secure.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await server.app.close();
  await secure.app.close();
  await storage.close();
});
beforeEach(async () => {
  authz.open = true;
  for (const ns of ['team-a', 'team-b']) {
    await fetch(`http://127.0.0.1:${port}${events}/${ns}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleEvent('e1', ns)),
    });
  }
  authz.open = false;
  authz.asked.length = 0;
  routed.length = 0;
});

const exists = (namespace: string): Promise<unknown> => storage.get({ resource: 'events', namespace, name: 'e1' });

/** One raw HTTP/1.1 request with the target exactly as given; resolves with the status and body. */
function raw(method: string, target: string, body = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let data = '';
    sock.setEncoding('latin1');
    sock.on('data', (d: string) => (data += d));
    sock.on('error', reject);
    sock.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      const at = data.indexOf('\r\n\r\n');
      resolve({ status: m ? Number(m[1]) : 0, body: at < 0 ? '' : data.slice(at + 4) });
    });
    const headers = [
      `${method} ${target} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...(body ? ['Content-Type: application/merge-patch+json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
    ];
    sock.end(`${headers.join('\r\n')}\r\n\r\n${body}`, 'latin1');
  });
}

/** One HTTP/2 request with `:path` exactly as given. */
function h2(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const session = h2connect(`https://127.0.0.1:${securePort}`, { rejectUnauthorized: false });
    session.on('error', reject);
    const stream = session.request({ ':method': method, ':path': path });
    stream.on('response', (h) => {
      stream.resume();
      stream.on('end', () => {
        session.close();
        resolve(Number(h[':status']));
      });
    });
    stream.on('error', reject);
    stream.end();
  });
}

const events = '/apis/events.k8s.io/v1/namespaces';

describe('one parse of the request target (issue: the authorizer sees the request that runs)', () => {
  it('an absolute-form target is authorized by its path, as a resource request', async () => {
    const r = await raw('GET', `https://127.0.0.1:${port}${events}/team-b/events`);
    expect(r.status).toBe(403);
    expect(authz.asked).toHaveLength(1);
    expect(authz.asked[0]).toMatchObject({
      isResourceRequest: true,
      verb: 'list',
      namespace: 'team-b',
      resource: 'events',
      path: `${events}/team-b/events`,
    });
    expect(routed).toHaveLength(0);
    const del = await raw('DELETE', `http://x${events}/team-b/events/e1`);
    expect(del.status).toBe(403);
    await expect(exists('team-b')).resolves.toBeDefined();
  });

  it('a # is part of the name: get and delete of "#x" are 404, never a list or a deletecollection', async () => {
    const get = await raw('GET', `${events}/team-a/events/#x`);
    expect(get.status).toBe(404);
    expect(JSON.parse(get.body)).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect(authz.asked.map((a) => [a.verb, a.name])).toEqual([['get', '#x']]);
    expect(routed.map((r) => [r.info.verb, r.params['name']])).toEqual([['get', '#x']]);
    const del = await raw('DELETE', `${events}/team-a/events/#x`);
    expect(del.status).toBe(404);
    await expect(exists('team-a')).resolves.toBeDefined();
    const lease = await raw('DELETE', '/apis/coordination.k8s.io/v1/namespaces/team-a/leases/#&dryRun=All');
    expect(lease.status).toBe(404);
    expect(authz.asked.at(-1)).toMatchObject({ verb: 'delete', name: '#&dryRun=All' });
  });

  it('a # is part of the name on HTTP/2 too', async () => {
    expect(await h2('GET', `${events}/team-a/events/#x`)).toBe(404);
    expect(await h2('DELETE', `${events}/team-a/events/#x`)).toBe(404);
    await expect(exists('team-a')).resolves.toBeDefined();
  });

  it('non-resource paths are authorized decoded and canonical, as served', async () => {
    for (const target of [
      '/metrics',
      '/%6detrics',
      '/%6Detrics',
      'http://x/metrics',
      'https://x:1/metrics',
      '/metrics/',
    ]) {
      authz.asked.length = 0;
      const r = await raw('GET', target);
      expect([target, r.status]).toEqual([target, 403]);
      expect(authz.asked.map((a) => a.path)).toEqual(['/metrics']);
    }
    const hash = await raw('GET', '/metrics#x');
    expect(hash.status).toBe(404);
    expect(authz.asked.at(-1)?.path).toBe('/metrics#x');
  });

  it('refuses what cannot be read with 400, and empty segments with 404, before authorization', async () => {
    authz.asked.length = 0;
    const cases: [string, number, string][] = [
      ['/api/v1/namespaces/a%zz/events', 400, 'invalid URL escape "%zz"'],
      ['/api/v1/namespaces/a%ff/events', 400, 'invalid URL: the path is not valid UTF-8 once unescaped'],
      ['//metrics', 404, 'the server could not find the requested resource'],
      [`${events}//events`, 404, 'the server could not find the requested resource'],
    ];
    for (const [target, code, message] of cases) {
      const r = await raw('GET', target);
      expect([target, r.status, JSON.parse(r.body).message]).toEqual([target, code, message]);
    }
    expect(authz.asked).toHaveLength(0);
    expect(parseRequestTarget('x:opaque').error?.status.message).toBe('invalid request target "x:opaque"');
  });

  it('percent-encoded names reach the handler decoded, as the authorizer saw them', async () => {
    const r = await raw('PATCH', `${events}/team-a/events/%65%31`, '{"metadata":{"labels":{"patched":"yes"}}}');
    expect(r.status).toBe(200);
    expect(authz.asked.at(-1)).toMatchObject({ verb: 'patch', name: 'e1', namespace: 'team-a' });
  });
});

describe('the router and RequestInfo agree on every target (property)', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'api',
      'apis',
      'v1',
      'events.k8s.io',
      'coordination.k8s.io',
      'namespaces',
      'team-a',
      'team-b',
      'events',
      'leases',
      'watch',
      'metrics',
      'version',
      'e1',
      '#x',
      '%23',
      '%2F',
      '%2f',
      '%25',
      '%zz',
      '%6detrics',
      '%C3%A9',
      '.',
      '..',
      '',
      ';a',
      'a;b',
      '*',
      '@',
      'a+b',
    ),
    fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@#%-]{0,4}$/),
  );
  const prefix = fc.constantFrom('', 'http://h', 'https://h:6443', 'HTTP://h', '/apis/events.k8s.io/v1', '/api/v1');
  const suffix = fc.constantFrom(
    '',
    '/',
    '?watch=0',
    '?limit=1#x',
    '?fieldSelector=metadata.name%3De1',
    '#&dryRun=All',
  );
  const method = fc.constantFrom('GET', 'HEAD', 'DELETE');

  it('params, resource and path match RequestInfo; the authorizer saw that RequestInfo; no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(method, prefix, fc.array(segment, { maxLength: 8 }), suffix, async (m, p, segs, s) => {
        authz.asked.length = 0;
        routed.length = 0;
        const target = `${p}/${segs.join('/')}${s}`;
        const r = await raw(m, target);
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(500);
        for (const x of routed) {
          expect(authz.asked).toHaveLength(1);
          const a = authz.asked[0]!;
          expect([a.path, a.verb, a.namespace, a.name, a.resource]).toEqual([
            x.info.path,
            x.info.verb,
            x.info.namespace,
            x.info.name,
            x.info.resource,
          ]);
          if (x.params['namespace'] !== undefined) expect(x.params['namespace']).toBe(x.info.namespace);
          if (x.params['name'] !== undefined) expect(x.params['name']).toBe(x.info.name);
          if (x.resource !== undefined) expect(x.info.resource).toBe(x.resource);
          const staticRoute = x.route !== '' && !x.route.includes(':') && !x.route.includes('*');
          if (!x.info.isResourceRequest && staticRoute) {
            expect(x.info.path).toBe(x.route.replace(/(.)\/$/, '$1'));
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
