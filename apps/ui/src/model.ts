/**
 * The web view's model, free of the DOM: the filters kept in the URL, the field and label selectors
 * they become, the rows shown for an events.k8s.io/v1 Event, and the timeline's buckets.
 */

/** The label the mirror puts on the events it copies from a cluster. */
export const clusterLabel = 'kevents.io/cluster';

/** Every filter of the view; each is a query parameter of the page's URL, so a link reproduces the view. */
export interface Filters {
  /** Namespace (the request path); empty for all namespaces. */
  readonly namespace: string;
  readonly type: string;
  readonly reason: string;
  readonly kind: string;
  readonly name: string;
  readonly controller: string;
  /** `kevents.io/cluster` label. */
  readonly cluster: string;
  /** Text filter on the note (client side: the API has no selector for it). */
  readonly text: string;
  /** Time window on last seen, epoch milliseconds (client side); 0 when open. */
  readonly from: number;
  readonly to: number;
}

export const emptyFilters: Filters = {
  namespace: '',
  type: '',
  reason: '',
  kind: '',
  name: '',
  controller: '',
  cluster: '',
  text: '',
  from: 0,
  to: 0,
};

/** Query parameter of each filter. */
const params: Record<keyof Filters, string> = {
  namespace: 'namespace',
  type: 'type',
  reason: 'reason',
  kind: 'kind',
  name: 'name',
  controller: 'controller',
  cluster: 'cluster',
  text: 'q',
  from: 'from',
  to: 'to',
};

/** The filters a page URL's query string holds (unknown parameters are ignored). */
export function filtersFromSearch(search: string): Filters {
  const q = new URLSearchParams(search);
  const num = (v: string | null): number => {
    const n = v ? Date.parse(v) : NaN;
    return Number.isFinite(n) ? n : 0;
  };
  return {
    namespace: q.get(params.namespace) ?? '',
    type: q.get(params.type) ?? '',
    reason: q.get(params.reason) ?? '',
    kind: q.get(params.kind) ?? '',
    name: q.get(params.name) ?? '',
    controller: q.get(params.controller) ?? '',
    cluster: q.get(params.cluster) ?? '',
    text: q.get(params.text) ?? '',
    from: num(q.get(params.from)),
    to: num(q.get(params.to)),
  };
}

/** The query string (with `?`, or empty) that {@link filtersFromSearch} reads back to `f`. */
export function searchFromFilters(f: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const key of Object.keys(params) as (keyof Filters)[]) {
    const v = f[key];
    if (typeof v === 'number') {
      if (v) q.set(params[key], new Date(v).toISOString());
    } else if (v) q.set(params[key], v);
  }
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Escapes a field selector value as k8s.io/apimachinery/pkg/fields.EscapeValue does. */
export function escapeFieldValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/=/g, '\\=');
}

/** The server-side selectors of `f` (events.k8s.io/v1 field labels and the cluster label). */
export function selectors(f: Filters): { fieldSelector: string; labelSelector: string } {
  const fields: string[] = [];
  const add = (label: string, v: string): void => {
    if (v) fields.push(`${label}=${escapeFieldValue(v)}`);
  };
  add('type', f.type);
  add('reason', f.reason);
  add('regarding.kind', f.kind);
  add('regarding.name', f.name);
  add('reportingController', f.controller);
  return { fieldSelector: fields.join(','), labelSelector: f.cluster ? clusterSelector(f.cluster) : '' };
}

/** A label value as Kubernetes validates one (`IsValidLabelValue`): at most 63 characters of this form. */
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * The label selector of events mirrored from cluster `name`. Label selectors cannot escape a
 * value, so a name no label value can be (`a,b`, `x!=y`) selects nothing, as no event can carry
 * it, instead of adding terms of its own to the selector.
 */
export function clusterSelector(name: string): string {
  return name.length <= 63 && labelValue.test(name) ? `${clusterLabel}=${name}` : `${clusterLabel},!${clusterLabel}`;
}

/** The collection path of events.k8s.io/v1 events, relative to the page at `/ui/` (works behind a path prefix). */
export function collectionPath(namespace: string): string {
  return namespace
    ? `../apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events`
    : '../apis/events.k8s.io/v1/events';
}

/** The query string of a list or watch request for `f`. */
export function requestQuery(f: Filters, extra: Record<string, string>): string {
  const q = new URLSearchParams();
  const { fieldSelector, labelSelector } = selectors(f);
  if (fieldSelector) q.set('fieldSelector', fieldSelector);
  if (labelSelector) q.set('labelSelector', labelSelector);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

/** An object reference as events.k8s.io/v1 carries it. */
export interface ObjectRef {
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly apiVersion?: string;
}

/** The fields of an events.k8s.io/v1 Event the view reads. */
export interface WireEvent {
  readonly metadata: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly creationTimestamp?: string;
    readonly labels?: Record<string, string>;
  };
  readonly eventTime?: string | null;
  readonly series?: { readonly count?: number; readonly lastObservedTime?: string } | null;
  readonly reportingController?: string;
  readonly reportingInstance?: string;
  readonly action?: string;
  readonly reason?: string;
  readonly regarding?: ObjectRef;
  readonly related?: ObjectRef | null;
  readonly note?: string;
  readonly type?: string;
  readonly deprecatedCount?: number;
  readonly deprecatedFirstTimestamp?: string | null;
  readonly deprecatedLastTimestamp?: string | null;
}

/** One row of the list. */
export interface Row {
  /** uid, else namespace/name. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly type: string;
  readonly reason: string;
  readonly kind: string;
  readonly objectNamespace: string;
  readonly objectName: string;
  readonly related: ObjectRef | null;
  readonly regarding: ObjectRef;
  readonly note: string;
  readonly count: number;
  /** Epoch ms. */
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly controller: string;
  readonly cluster: string;
  readonly series: boolean;
}

const time = (...ts: (string | null | undefined)[]): number => {
  for (const t of ts) {
    if (!t) continue;
    const n = Date.parse(t);
    if (Number.isFinite(n)) return n;
  }
  return 0;
};

/** The row shown for an event: first seen, count and last seen folded from series or the deprecated fields. */
export function toRow(e: WireEvent): Row {
  const m = e.metadata;
  const regarding = e.regarding ?? {};
  const firstSeen = time(e.deprecatedFirstTimestamp, e.eventTime, m.creationTimestamp);
  const lastSeen = Math.max(
    firstSeen,
    time(e.series?.lastObservedTime, e.deprecatedLastTimestamp, e.eventTime, m.creationTimestamp),
  );
  return {
    key: m.uid || `${m.namespace ?? ''}/${m.name ?? ''}`,
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    type: e.type ?? '',
    reason: e.reason ?? '',
    kind: regarding.kind ?? '',
    objectNamespace: regarding.namespace ?? '',
    objectName: regarding.name ?? '',
    regarding,
    related: e.related ?? null,
    note: e.note ?? '',
    count: e.series?.count ?? (e.deprecatedCount && e.deprecatedCount > 0 ? e.deprecatedCount : 1),
    firstSeen,
    lastSeen,
    controller: e.reportingController ?? '',
    cluster: m.labels?.[clusterLabel] ?? '',
    series: !!e.series,
  };
}

/** Newest first (last seen), then by key so the order is stable. */
export function newestFirst(a: Row, b: Row): number {
  return b.lastSeen - a.lastSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Whether `r` passes the client-side filters (the note text and the time window). */
export function matchesClient(r: Row, f: Filters): boolean {
  if (f.text && !r.note.toLowerCase().includes(f.text.toLowerCase())) return false;
  if (f.from && r.lastSeen < f.from) return false;
  if (f.to && r.lastSeen >= f.to) return false;
  return true;
}

/** The object a story is about. */
export interface StoryTarget {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

const refIs = (ref: ObjectRef | null | undefined, t: StoryTarget): boolean =>
  !!ref && (ref.kind ?? '') === t.kind && (ref.name ?? '') === t.name && (ref.namespace ?? '') === t.namespace;

/** Whether an event's `regarding` or `related` is the object. */
export function concerns(r: Row, t: StoryTarget): boolean {
  return refIs(r.regarding, t) || refIs(r.related, t);
}

/** One object's story: its events in time order (first seen, then last seen). */
export function story(rows: Iterable<Row>, t: StoryTarget): Row[] {
  const out: Row[] = [];
  for (const r of rows) if (concerns(r, t)) out.push(r);
  return out.sort((a, b) => a.firstSeen - b.firstSeen || a.lastSeen - b.lastSeen || (a.key < b.key ? -1 : 1));
}

/** Timeline buckets: per minute, per hour past six hours, per day (or several) past thirty days. */
export interface Buckets {
  /** Bucket width, ms. */
  readonly step: number;
  /** Start of each bucket, epoch seconds (uPlot's x). */
  readonly x: number[];
  /** Events per bucket by type, in {@link Buckets.types} order. */
  readonly counts: number[][];
  readonly types: string[];
}

const minute = 60_000;
const hour = 3_600_000;
const day = 86_400_000;

/**
 * The most buckets a timeline holds. Any stored event may carry any time from year 1 to 9999 (kube accepts
 * them too), and one such event beside today's used to make ~17.7 million hourly buckets (year 1: 3.7 s and
 * 0.5 GB before the chart, year 9999 ~88 million): the step widens to whole days so the count stays under this.
 */
export const maxBuckets = 1_500;

/** The bucket width for events spanning `span` ms: a minute up to six hours, an hour up to thirty days, else days. */
export function bucketStep(span: number): number {
  if (span <= 6 * hour) return minute;
  if (span <= 30 * day) return hour;
  return day * Math.max(1, Math.ceil((span + day) / day / (maxBuckets - 1)));
}

/**
 * The most types drawn as their own series. A core/v1 Event's `type` is free text (kube validates it only on
 * events.k8s.io), and every type was a series of its own: 10,000 types made 10,000 series (733 ms to count
 * them, before the chart drew any); past this, the rest are counted together as {@link otherType}.
 */
export const maxTypes = 10;

/** The series that counts the types past {@link maxTypes}. */
export const otherType = '(other types)';

/** Counts events per bucket ({@link bucketStep}) and type over the rows' window, each event at its last seen time. */
export function bucketize(rows: readonly Row[], types: readonly string[] = ['Normal', 'Warning']): Buckets {
  const all = [...types];
  const index = new Map(all.map((t, i) => [t, i]));
  const typeIndex = (type: string): number => {
    const t = type || 'Normal';
    const known = index.get(t);
    if (known !== undefined) return known;
    if (all.length < maxTypes) {
      index.set(t, all.push(t) - 1);
      return all.length - 1;
    }
    if (all.length === maxTypes) all.push(otherType);
    return maxTypes;
  };
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    if (!r.lastSeen) continue;
    if (r.lastSeen < lo) lo = r.lastSeen;
    if (r.lastSeen > hi) hi = r.lastSeen;
    typeIndex(r.type);
  }
  if (lo === Infinity) return { step: minute, x: [], counts: all.map(() => []), types: all };
  const step = bucketStep(hi - lo);
  const start = Math.floor(lo / step) * step;
  const n = Math.floor(hi / step) - Math.floor(lo / step) + 1;
  const x = Array.from({ length: n }, (_, i) => (start + i * step) / 1000);
  const counts = all.map(() => new Array<number>(n).fill(0));
  for (const r of rows) {
    if (!r.lastSeen) continue;
    counts[typeIndex(r.type)]![Math.floor((r.lastSeen - start) / step)]! += 1;
  }
  return { step, x, counts, types: all };
}
