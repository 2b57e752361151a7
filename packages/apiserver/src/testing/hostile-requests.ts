import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import fc from 'fast-check';

/**
 * A property-based fuzz of the HTTP API (issue 11): hostile paths, query strings and bodies for
 * every verb on every resource the server lists in discovery, each checked for what no client
 * may cause: a 5xx (a 504 `ResourceVersionTooLarge`, Kubernetes' answer to a resourceVersion
 * from the future, excepted), an error body that is not a `metav1.Status`, a write kept by a
 * rejected request (the global resourceVersion moved), a hang, oversized Warning headers, or a
 * server that stops answering.
 */

/** A resource as discovery lists it. */
export interface FuzzTarget {
  readonly prefix: string;
  readonly groupVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** One generated request. */
export interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** What a run found: every violation with the request that caused it. */
export interface FuzzReport {
  requests: number;
  readonly byStatus: Record<string, number>;
  readonly failures: { request: HostileRequest; problem: string }[];
}

/**
 * Builds a valid object of a target's kind, for the seeds and as the base that mutated bodies
 * start from (so they reach past decoding into validation and storage); undefined leaves the
 * target to {@link validObject} (Events, Leases, or a bare object of any other kind).
 */
export type ValidObjectGenerator = (
  target: FuzzTarget,
  name: string,
  namespace: string,
) => Record<string, unknown> | undefined;

/** How the generated bodies are made for kinds the fuzz does not know. */
export interface BodyOptions {
  /** Valid objects of your kinds (`Widget` with its required spec). */
  readonly validObject?: ValidObjectGenerator;
  /** Field names of your kinds that mutations set, beside the ones of Events and Leases (`color`, `size`). */
  readonly fieldNames?: readonly string[];
}

/** Options of {@link fuzzServer}. */
export interface FuzzOptions extends BodyOptions {
  readonly baseURL: string;
  readonly numRuns: number;
  readonly seed?: number;
  /** Called after each request (progress output). */
  readonly onRequest?: (done: number, report: FuzzReport) => void;
  /** Per-request limit on waiting for an answer (ms). */
  readonly timeoutMs?: number;
}

const json = 'application/json';

/** Reads discovery: every served resource (not subresources) with its path prefix. */
export async function discoverTargets(baseURL: string): Promise<FuzzTarget[]> {
  const get = async (path: string): Promise<Record<string, unknown>> =>
    (await (await fetch(`${baseURL}${path}`, { headers: { accept: json } })).json()) as Record<string, unknown>;
  const lists: [string, string][] = [['/api/v1', 'v1']];
  const groups = (await get('/apis'))['groups'] as { versions: { groupVersion: string }[] }[];
  for (const g of groups) for (const v of g.versions) lists.push([`/apis/${v.groupVersion}`, v.groupVersion]);
  const targets: FuzzTarget[] = [];
  for (const [prefix, groupVersion] of lists) {
    const list = (await get(prefix))['resources'] as {
      name: string;
      kind: string;
      namespaced: boolean;
      verbs: string[];
    }[];
    for (const r of list ?? []) {
      // Resources listed only so clients can resolve names have no verbs: nothing serves them.
      if (!r.name.includes('/') && r.verbs.length > 0)
        targets.push({ prefix, groupVersion, resource: r.name, kind: r.kind, namespaced: r.namespaced });
    }
  }
  return targets;
}

/** A valid object of a kind the fuzz knows (Events, Leases; a bare object of any other kind), so that mutations reach past decoding. */
export function validObject(t: FuzzTarget, name: string, namespace: string): Record<string, unknown> {
  const metadata = { name, namespace, labels: { app: 'fuzz' } };
  const regarding = { kind: 'Pod', name: 'web-0', namespace };
  if (t.kind === 'Event' && t.groupVersion === 'v1') {
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata,
      involvedObject: regarding,
      reason: 'Fuzzed',
      message: 'fuzz',
      type: 'Normal',
      eventTime: '2026-01-02T03:04:05.123456Z',
      reportingComponent: 'example.com/fuzz',
      reportingInstance: 'fuzz-1',
      action: 'Fuzz',
    };
  }
  if (t.kind === 'Event') {
    return {
      apiVersion: t.groupVersion,
      kind: 'Event',
      metadata,
      eventTime: '2026-01-02T03:04:05.123456Z',
      reportingController: 'example.com/fuzz',
      reportingInstance: 'fuzz-1',
      action: 'Fuzz',
      reason: 'Fuzzed',
      type: 'Normal',
      regarding,
    };
  }
  if (t.kind === 'Lease') {
    return {
      apiVersion: t.groupVersion,
      kind: 'Lease',
      metadata,
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-01-02T03:04:05.123456Z' },
    };
  }
  return { apiVersion: t.groupVersion, kind: t.kind, metadata };
}

const names = ['fuzz-0', 'fuzz-1'];
const namespace = 'fuzz';
const hostileKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'é中', 'a\nb', '$patch', 'metadata', 'kind'];

/** Nested `{"a":...}` text `depth` levels deep. */
const nested = (depth: number, open = '{"a":', close = '}'): string => `${open.repeat(depth)}1${close.repeat(depth)}`;

const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...names) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,20}[a-z0-9])?$/) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 300 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('%zz', '%ED%A0%80', '%00', '%2F', '..', '.', '%', 'a%2', '%C0%AF') },
);

/** How the request target is written: origin form, absolute form, with stray slashes or a `#`. */
const targetForm = fc.constantFrom(
  'origin',
  'origin',
  'origin',
  'origin',
  'absolute',
  'trailingSlash',
  'doubleSlash',
  'hashName',
  'hashQuery',
  'encodedPrefix',
);

/** Writes a path (`/...?...`) in a target form; the server must read every form as Go does. */
function formTarget(form: string, path: string): string {
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  const query = q < 0 ? '' : path.slice(q);
  switch (form) {
    case 'absolute':
      return `http://fuzz.invalid${path}`;
    case 'trailingSlash':
      return `${p}/${query}`;
    case 'doubleSlash':
      return `/${path}`;
    case 'hashName':
      return `${p}/#x${query}`;
    case 'hashQuery':
      return `${p}#&dryRun=All&watch=true`;
    case 'encodedPrefix':
      return `${p.replace(/^\/ap/, '/%61p')}${query}`;
    default:
      return path;
  }
}

/** Request headers beyond Accept and Content-Type: impersonation, credentials, junk. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.tuple(
        fc.constant('impersonate-user'),
        fc.constantFrom('admin', 'system:serviceaccount:kube-system:x', '', 'é'),
      ),
      fc.tuple(fc.constant('impersonate-group'), fc.constantFrom('system:masters', 'system:authenticated', '')),
      fc.tuple(fc.constant('impersonate-uid'), fc.constantFrom('1234', '')),
      fc.tuple(
        fc.constantFrom('impersonate-extra-scopes', 'impersonate-extra-%41b', 'impersonate-extra-'),
        fc.constant('x'),
      ),
      fc.tuple(fc.constant('authorization'), fc.constantFrom('Bearer x', 'Bearer ', 'Basic YTpi', 'Bearer a.b.c')),
      fc.tuple(fc.constantFrom('x-remote-user', 'x-remote-group'), fc.constant('admin')),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs));

const queryKeys = [
  'resourceVersion',
  'resourceVersionMatch',
  'limit',
  'continue',
  'labelSelector',
  'fieldSelector',
  'watch',
  'timeoutSeconds',
  'dryRun',
  'fieldValidation',
  'pretty',
  'propagationPolicy',
  'gracePeriodSeconds',
  'sendInitialEvents',
  'allowWatchBookmarks',
  'includeObject',
  'fieldManager',
];
const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'abc',
    '-1',
    '1.5',
    '0x10',
    '9007199254740993',
    '99999999999999999999999',
    '0',
    '1',
    '2',
    'true',
    'false',
    'All',
    'Strict',
    'Warn',
    'Ignore',
    'NotOlderThan',
    'Exact',
    'Foreground',
    'Orphan',
    'a=b,c!=d',
    'metadata.name=fuzz-0',
    'x in (a,b',
    '%zz',
  ),
  fc.string({ maxLength: 16 }).map(encodeURIComponent),
  fc.nat().map(String),
);

/** A JSON value whose object keys include JavaScript's own names. */
const hostileJSON: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...hostileKeys), fc.string({ maxLength: 6 })), tie('value')), {
        maxLength: 4,
      })
      .map((entries) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of entries)
          Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        return o;
      }),
  ),
})).value;

/** Sets `value` at a path of fresh objects under `root` (keys as plain data). */
function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let o = root;
  for (let i = 0; i < path.length; i++) {
    const k = path[i]!;
    if (i === path.length - 1) {
      Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const next = Object.hasOwn(o, k) ? o[k] : undefined;
    const child =
      next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
    Object.defineProperty(o, k, { value: child, enumerable: true, writable: true, configurable: true });
    o = child;
  }
}

/** Paths of fields that mutations set: known field names, the kinds' own, and hostile keys. */
const fieldPaths = (extra: readonly string[] = []): fc.Arbitrary<string[]> =>
  fc.array(
    fc.oneof(
      fc.constantFrom(
        'metadata',
        'labels',
        'annotations',
        'spec',
        'series',
        'regarding',
        'involvedObject',
        'eventTime',
      ),
      fc.constantFrom(
        'renewTime',
        'deprecatedCount',
        'note',
        'name',
        'finalizers',
        'managedFields',
        'kind',
        'apiVersion',
        ...extra,
      ),
      fc.constantFrom(...hostileKeys),
    ),
    { minLength: 1, maxLength: 4 },
  );

/** The valid object of a target: the caller's generator first, then the fuzz's own. */
const validObjectOf = (o: BodyOptions, t: FuzzTarget, name: string, ns: string): Record<string, unknown> =>
  o.validObject?.(t, name, ns) ?? validObject(t, name, ns);

const microTimes = fc.constantFrom(
  '2026-11-22T01:00:00Z',
  '2026-11-22T01:00:00.123Z',
  '2026-11-22T01:00:00.123456+00:00',
  '2026-11-22T01:00:00.123456789Z',
  '2026-02-30T01:00:00.000000Z',
  '0000-01-01T00:00:00.000000+01:00',
  '',
);

/** Body text for a target: a mutated valid object, a deep or wide document, a patch, or noise. */
function bodyFor(t: FuzzTarget, name: string, o: BodyOptions): fc.Arbitrary<string> {
  const base = (): Record<string, unknown> => validObjectOf(o, t, name, namespace);
  const fieldPath = fieldPaths(o.fieldNames);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fieldPath, hostileJSON).map(([p, v]) => {
        const o = base();
        setPath(o, p, v);
        return JSON.stringify(o);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            ['eventTime'],
            ['series', 'lastObservedTime'],
            ['spec', 'renewTime'],
            ['spec', 'acquireTime'],
          ),
          microTimes,
        )
        .map(([p, v]) => {
          const o = base();
          setPath(o, p, v);
          return JSON.stringify(o);
        }),
    },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(base())) },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 990, max: 12000 }).map((n) => {
        const o = JSON.stringify(base());
        return `${o.slice(0, -1)},"metadata":{"name":${JSON.stringify(name)},"managedFields":[{"manager":"m","operation":"Update","fieldsType":"FieldsV1","fieldsV1":${nested(n)}}]}}`;
      }),
    },
    { weight: 1, arbitrary: fc.integer({ min: 990, max: 12000 }).map((n) => nested(n, '[', ']')) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => {
        const o = JSON.stringify(base());
        const extra = Array.from({ length: n }, (_, i) => `"é中${i}":${i}`).join(',');
        return `${o.slice(0, -1)},${extra}}`;
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.record({
            op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
            path: fieldPath.map((p) => `/${p.join('/')}`),
            from: fieldPath.map((p) => `/${p.join('/')}`),
            value: hostileJSON,
          }),
          { maxLength: 3 },
        )
        .map((ops) => JSON.stringify(ops)),
    },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constant('[{"op":"move","path":"/metadata/annotations","from":""}]'),
        fc.constant('[{"op":"copy","path":"/metadata/labels/x","from":""}]'),
        fc.constant('[{"op":"move","path":"/metadata/a/b","from":"/metadata/a"}]'),
        fc
          .integer({ min: 1, max: 60 })
          .map((n) =>
            JSON.stringify(
              Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/c${i}` })),
            ),
          ),
        fc
          .integer({ min: 9_990, max: 10_010 })
          .map((n) => JSON.stringify(Array.from({ length: n }, () => ({ op: 'test', path: '/kind', value: t.kind })))),
        fc
          .integer({ min: 1, max: 40 })
          .map((n) =>
            JSON.stringify(
              Array.from({ length: n }, () => ({ op: 'add', path: '/metadata/labels/a', value: 'x'.repeat(60_000) })),
            ),
          ),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{}',
        '[]',
        'null',
        '',
        '{"kind":{"toString":1}}',
        '{"kind":null,"__proto__":{"kind":"Pod"}}',
        '{"kind":{"__proto__":{"toString":"x"}}}',
        '{"a":1,"a":2}',
        '{"metadata":{"name":"x","name":"y"}}',
        'kind: [',
        '- a\n- b',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
}

/** The request generator for a set of targets (`options`: valid objects and field names of your kinds). */
export function hostileRequests(
  targets: readonly FuzzTarget[],
  options: BodyOptions = {},
): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      t: fc.constantFrom(...targets),
      method: fc.constantFrom(
        'GET',
        'GET',
        'HEAD',
        'POST',
        'POST',
        'PUT',
        'PUT',
        'PATCH',
        'PATCH',
        'PATCH',
        'DELETE',
        'OPTIONS',
        'PROPFIND',
        'FOO',
      ),
      shape: fc.constantFrom('collection', 'item', 'item', 'allNamespaces', 'watch'),
      ns: fc.oneof({ weight: 4, arbitrary: fc.constant(namespace) }, { weight: 1, arbitrary: segment }),
      name: segment,
      query: fc.array(fc.tuple(fc.constantFrom(...queryKeys), queryValue), { maxLength: 4 }),
      contentType: fc.constantFrom(
        json,
        json,
        'application/yaml',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
        'application/json-patch+json',
        'application/apply-patch+yaml',
        'text/plain',
        'application/json; charset=utf-16',
      ),
      longURL: fc.boolean().map((b) => b && Math.random() < 0.02),
      bodySeed: fc.nat(),
      form: targetForm,
      extra: extraHeaders,
    })
    .chain((r) =>
      bodyFor(r.t, decodeURIComponentSafe(r.name), options).map((body): HostileRequest => {
        const nsPart = r.t.namespaced && r.shape !== 'allNamespaces' ? `/namespaces/${r.ns}` : '';
        const watch = r.shape === 'watch' ? '/watch' : '';
        let path = `${r.t.prefix}${watch}${nsPart}/${r.t.resource}`;
        if (r.shape === 'item') path += `/${r.name}`;
        const query = r.query.map(([k, v]) => (k === 'timeoutSeconds' ? `${k}=1` : `${k}=${v}`));
        if (r.longURL) query.push(`x=${'a'.repeat(17 * 1024)}`);
        const headers: Record<string, string> = { ...r.extra, accept: json };
        const withBody =
          r.method === 'POST' ||
          r.method === 'PUT' ||
          r.method === 'PATCH' ||
          (r.method === 'DELETE' && r.bodySeed % 3 === 0);
        if (withBody) headers['content-type'] = r.contentType;
        return {
          method: r.method,
          path: formTarget(r.form, query.length ? `${path}?${query.join('&')}` : path),
          headers,
          ...(withBody ? { body } : {}),
        };
      }),
    );
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The global resourceVersion as a list of the first target reports it. */
async function currentRV(baseURL: string, t: FuzzTarget): Promise<string> {
  const r = await fetch(`${baseURL}${t.prefix}/${t.resource}?limit=1`, { headers: { accept: json } });
  return ((await r.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

/** Checks an error body: a `metav1.Status` whose code is the HTTP status. */
function statusProblem(code: number, text: string): string | undefined {
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `error body is not JSON: ${text.slice(0, 200)}`;
  }
  if (s['kind'] !== 'Status' || s['apiVersion'] !== 'v1' || s['status'] !== 'Failure' || s['code'] !== code) {
    return `error body is not a Failure Status with code ${code}: ${text.slice(0, 300)}`;
  }
  if (typeof s['message'] !== 'string') return `Status without a message: ${text.slice(0, 300)}`;
  return undefined;
}

/** What {@link send} read of an answer: the body only for errors. */
interface RawAnswer {
  readonly status: number;
  readonly text: string;
  readonly warning: string;
  readonly error?: string;
}

/**
 * Sends one request with its target exactly as generated (Node's client writes the path as
 * given; `fetch` would resolve dot segments and cut at `#`), and reads the body of an error.
 */
function send(baseURL: string, req: HostileRequest, timeoutMs: number): Promise<RawAnswer> {
  const base = new URL(baseURL);
  const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        // Node refuses to write a space or a control character; what a browser would escape is escaped.
        path: req.path.replace(/[^\x21-\x7e]/g, encodeURIComponent),
        headers: {
          ...req.headers,
          ...(req.body !== undefined ? { 'content-length': Buffer.byteLength(req.body) } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const w = res.headers['warning'];
        const warning = Array.isArray(w) ? w.join(', ') : (w ?? '');
        if (status < 400) {
          res.destroy();
          resolve({ status, text: '', warning });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status, text: Buffer.concat(chunks).toString('utf8'), warning }));
        res.on('error', (e) =>
          resolve({ status, text: Buffer.concat(chunks).toString('utf8'), warning, error: e.message }),
        );
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Sends one request and judges the answer; returns the HTTP status and any problem. */
export async function judge(
  baseURL: string,
  req: HostileRequest,
  rvTarget: FuzzTarget,
  timeoutMs: number,
): Promise<{ status: number; problem?: string }> {
  const before = writes.has(req.method) ? await currentRV(baseURL, rvTarget) : undefined;
  let answer: RawAnswer;
  try {
    answer = await send(baseURL, req, timeoutMs);
  } catch (err) {
    return { status: 0, problem: `no answer: ${(err as Error).message} (${String((err as Error).cause ?? '')})` };
  }
  const { status, text } = answer;
  let problem: string | undefined;
  const warnings = answer.warning;
  if (warnings.length > 64 * 1024) problem = `Warning headers of ${warnings.length} bytes`;
  if (status >= 400) {
    if (answer.error) problem ??= `error body not received: ${answer.error}`;
    if (req.method !== 'HEAD') problem ??= statusProblem(status, text);
    const tooLargeRV = status === 504 && (text.includes('Too large resource version') || req.method === 'HEAD');
    if (status >= 500 && !tooLargeRV) problem ??= `answered ${status}: ${text.slice(0, 300)}`;
  }
  if (before !== undefined && status >= 400) {
    const after = await currentRV(baseURL, rvTarget);
    if (after !== before)
      problem ??= `a rejected ${req.method} (${status}) wrote: resourceVersion ${before} -> ${after}`;
  }
  return { status, ...(problem ? { problem } : {}) };
}

/** Creates the objects the generated names point at, in every namespaced target. */
export async function seedObjects(
  baseURL: string,
  targets: readonly FuzzTarget[],
  options: BodyOptions = {},
): Promise<void> {
  for (const t of targets) {
    for (const name of names) {
      const nsPart = t.namespaced ? `/namespaces/${namespace}` : '';
      await fetch(`${baseURL}${t.prefix}${nsPart}/${t.resource}`, {
        method: 'POST',
        headers: { 'content-type': json },
        body: JSON.stringify(validObjectOf(options, t, name, namespace)),
      }).then((r) => r.body?.cancel());
    }
  }
}

/**
 * Runs the fuzz against a server: seeds objects, then sends `numRuns` generated requests one
 * at a time, and checks `/livez` every 50 requests and at the end. Never throws for a failure:
 * the report lists them (a property run stops at the first, and fast-check shrinks it).
 */
export async function fuzzServer(o: FuzzOptions): Promise<FuzzReport> {
  const targets = await discoverTargets(o.baseURL);
  const writable = targets.filter((t) => t.resource !== 'namespaces');
  await seedObjects(o.baseURL, writable, o);
  const report: FuzzReport = { requests: 0, byStatus: {}, failures: [] };
  const live = async (): Promise<void> => {
    const r = await fetch(`${o.baseURL}/livez`, { signal: AbortSignal.timeout(5000) }).catch((e: Error) => e);
    if (r instanceof Error || r.status !== 200) {
      report.failures.push({
        request: { method: 'GET', path: '/livez', headers: {} },
        problem: `server does not answer /livez: ${r instanceof Error ? r.message : r.status}`,
      });
    }
  };
  await fc
    .assert(
      fc.asyncProperty(hostileRequests(targets, o), async (req) => {
        const { status, problem } = await judge(o.baseURL, req, writable[0]!, o.timeoutMs ?? 15_000);
        report.requests++;
        report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
        if (report.requests % 50 === 0) await live();
        o.onRequest?.(report.requests, report);
        if (problem) report.failures.push({ request: req, problem });
        if (process.env['FUZZ_TRACE']) process.stderr.write(`${status} ${req.method} ${req.path.slice(0, 120)}\n`);
        return problem === undefined;
      }),
      { numRuns: o.numRuns, ...(o.seed !== undefined ? { seed: o.seed } : {}), endOnFailure: true },
    )
    .catch(() => undefined);
  await live();
  return report;
}
