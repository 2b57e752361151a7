/** The kevents web view: live list, filters in the URL, timeline, one object's story. */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import {
  bucketize,
  collectionPath,
  concerns,
  escapeFieldValue,
  emptyFilters,
  filtersFromSearch,
  matchesClient,
  newestFirst,
  searchFromFilters,
  story,
  toRow,
  type Filters,
  type Row,
  type StoryTarget,
  type WireEvent,
} from './model.js';
import { listAll, watchEvents } from './watch.js';

const tokenKey = 'kevents.token';
const rowHeight = 28;

/** The rows held, keyed by uid, with a sorted snapshot rebuilt at most once per render (see touch). */
class EventStore {
  private readonly byKey = new Map<string, Row>();
  private sorted: Row[] = [];
  private dirty = false;
  private scheduled = false;
  version = 0;
  private readonly changed: () => void;
  constructor(changed: () => void) {
    this.changed = changed;
  }
  reset(items: readonly WireEvent[]): void {
    this.byKey.clear();
    for (const e of items) {
      const r = toRow(e);
      this.byKey.set(r.key, r);
    }
    this.touch();
  }
  upsert(e: WireEvent): void {
    const r = toRow(e);
    this.byKey.set(r.key, r);
    this.touch();
  }
  remove(e: WireEvent): void {
    this.byKey.delete(toRow(e).key);
    this.touch();
  }
  rows(): Row[] {
    if (this.dirty) {
      this.sorted = [...this.byKey.values()].sort(newestFirst);
      this.dirty = false;
    }
    return this.sorted;
  }
  private touch(): void {
    this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    // At most one render per 150 ms: a burst of events costs one sort and one render, well inside the 1 s
    // an event may take to show.
    setTimeout(
      () =>
        requestAnimationFrame(() => {
          this.scheduled = false;
          this.version++;
          this.changed();
        }),
      150,
    );
  }
}

/** UTC, without the year: `11-28 14:51:00` (the full time is in the cell's title). */
const fmt = (ms: number): string => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(5, 19) : '');
const iso = (ms: number): string => (ms ? new Date(ms).toISOString() : '');
const objectText = (r: Row): string => `${r.kind}/${r.objectNamespace ? `${r.objectNamespace}/` : ''}${r.objectName}`;

function readUrl(): { filters: Filters; story: StoryTarget | null } {
  const filters = filtersFromSearch(location.search);
  const q = new URLSearchParams(location.search);
  const o = q.get('object');
  let target: StoryTarget | null = null;
  if (o) {
    const [kind = '', namespace = '', ...name] = o.split('/');
    target = { kind, namespace, name: name.join('/') };
  }
  return { filters, story: target };
}

function writeUrl(filters: Filters, target: StoryTarget | null, replace: boolean): void {
  const extra: Record<string, string> = target ? { object: `${target.kind}/${target.namespace}/${target.name}` } : {};
  const url = `${location.pathname}${searchFromFilters(filters, extra)}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}

interface FieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly list?: string;
  readonly type?: 'text' | 'search';
}

/**
 * A text filter: what is typed is kept here until committed (Enter or leaving the field), so the renders
 * live events cause meanwhile do not reset it; a new value from outside (the URL) replaces it.
 */
function Field(p: FieldProps) {
  const [draft, setDraft] = useState(p.value);
  useEffect(() => setDraft(p.value), [p.value]);
  return (
    <label for={p.id}>
      <span>{p.label}</span>
      <input
        id={p.id}
        name={p.id}
        type={p.type ?? 'text'}
        value={draft}
        list={p.list}
        onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
        onChange={(e) => p.onChange((e.currentTarget as HTMLInputElement).value.trim())}
      />
    </label>
  );
}

function FilterBar(props: { filters: Filters; onChange: (change: (f: Filters) => Filters) => void }) {
  const f = props.filters;
  // Changes apply to the newest filters, not to this render's: two quick edits must not undo each other.
  const set = (k: keyof Filters) => (v: string) => props.onChange((prev) => ({ ...prev, [k]: v }));
  return (
    <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <Field id="f-namespace" label="Namespace" value={f.namespace} onChange={set('namespace')} />
      <label for="f-type">
        <span>Type</span>
        <select
          id="f-type"
          name="f-type"
          value={f.type}
          onChange={(e) => set('type')((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">any</option>
          <option value="Normal">Normal</option>
          <option value="Warning">Warning</option>
        </select>
      </label>
      <Field id="f-reason" label="Reason" value={f.reason} onChange={set('reason')} />
      <Field id="f-kind" label="Kind" value={f.kind} onChange={set('kind')} />
      <Field id="f-name" label="Name" value={f.name} onChange={set('name')} />
      <Field id="f-controller" label="Controller" value={f.controller} onChange={set('controller')} />
      <Field id="f-cluster" label="Cluster" value={f.cluster} onChange={set('cluster')} />
      <Field id="f-text" label="Note contains" value={f.text} onChange={set('text')} type="search" />
      {f.from || f.to ? (
        <button type="button" onClick={() => props.onChange((prev) => ({ ...prev, from: 0, to: 0 }))}>
          Clear time range {fmt(f.from)} – {fmt(f.to)}
        </button>
      ) : null}
      <button type="button" onClick={() => props.onChange(() => emptyFilters)}>
        Clear filters
      </button>
    </form>
  );
}

function TokenField(props: { token: string; onChange: (t: string) => void }) {
  const [draft, setDraft] = useState(props.token);
  return (
    <form
      class="token"
      aria-label="Credentials"
      onSubmit={(e) => {
        e.preventDefault();
        props.onChange(draft.trim());
      }}
    >
      <label for="token">
        <span>Bearer token (kept in this tab only)</span>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          value={draft}
          onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <button type="submit">Use token</button>
      {props.token ? (
        <button
          type="button"
          onClick={() => {
            setDraft('');
            props.onChange('');
          }}
        >
          Forget token
        </button>
      ) : null}
    </form>
  );
}

/** The bucket width in words, for the chart's label. */
const stepName = (step: number): string =>
  step === 60_000 ? 'minute' : step === 3_600_000 ? 'hour' : step === 86_400_000 ? 'day' : `${step / 86_400_000} days`;

function Timeline(props: { rows: readonly Row[]; onRange: (from: number, to: number) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const buckets = useMemo(() => bucketize(props.rows), [props.rows]);
  const onRange = useRef(props.onRange);
  onRange.current = props.onRange;
  const step = useRef(buckets.step);
  step.current = buckets.step;
  useEffect(() => {
    const el = host.current!;
    // Stacked: each series is the sum of itself and the ones below it.
    const stacked: number[][] = [];
    buckets.counts.forEach((c, i) => stacked.push(c.map((v, j) => v + (i ? stacked[i - 1]![j]! : 0))));
    const data = [buckets.x, ...stacked.slice().reverse()] as uPlot.AlignedData;
    const colors: Record<string, string> = { Normal: '#2b6cb0', Warning: '#c05621' };
    const bars = uPlot.paths.bars!({ size: [0.8, 40], align: 1 });
    const series: uPlot.Series[] = [
      {},
      ...buckets.types
        .slice()
        .reverse()
        .map((t) => ({ label: t, fill: colors[t] ?? '#718096', stroke: colors[t] ?? '#718096', paths: bars })),
    ];
    // Same series: new data only (a new chart per frame of live events costs a long task).
    if (plot.current && plot.current.series.length === series.length) {
      plot.current.setData(data);
      el.dataset['buckets'] = String(buckets.x.length);
      el.dataset['counts'] = JSON.stringify(Object.fromEntries(buckets.types.map((t, i) => [t, buckets.counts[i]])));
      return;
    }
    if (plot.current) plot.current.destroy();
    const width = Math.max(300, el.clientWidth);
    plot.current = new uPlot(
      {
        width,
        height: 160,
        series,
        // The last bucket's bar starts at its x: keep one step of room after it.
        scales: { x: { time: true, range: (_u, min, max) => [min, max + step.current / 1000] } },
        axes: [{}, { label: 'events' }],
        cursor: { drag: { x: true, y: false, setScale: false } },
        hooks: {
          setSelect: [
            (u) => {
              if (u.select.width < 2) return;
              const from = u.posToVal(u.select.left, 'x') * 1000;
              const to = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
              onRange.current(Math.floor(from), Math.ceil(to));
            },
          ],
          ready: [
            (u) => {
              u.over.addEventListener('click', () => {
                const i = u.cursor.idx;
                if (i === null || i === undefined || u.select.width > 1) return;
                const x = (u.data[0][i] as number) * 1000;
                onRange.current(x, x + step.current);
              });
            },
          ],
        },
      },
      data,
      el,
    );
    el.dataset['buckets'] = String(buckets.x.length);
    el.dataset['counts'] = JSON.stringify(Object.fromEntries(buckets.types.map((t, i) => [t, buckets.counts[i]])));
  }, [buckets]);
  useEffect(() => () => plot.current?.destroy(), []);
  return (
    <section class="timeline" aria-label={`Events per ${stepName(buckets.step)} by type`}>
      <div ref={host} id="timeline" />
    </section>
  );
}

function EventRow(props: { row: Row; onObject: (t: StoryTarget) => void }) {
  const r = props.row;
  return (
    <tr class={r.type === 'Warning' ? 'warning' : undefined} data-key={r.key}>
      <td>{r.type}</td>
      <td>{r.reason}</td>
      <td>
        <button
          type="button"
          class="link"
          onClick={() => props.onObject({ kind: r.kind, namespace: r.objectNamespace, name: r.objectName })}
        >
          {objectText(r)}
        </button>
      </td>
      <td class="note" title={r.note}>
        {r.note}
      </td>
      <td class="num">{r.count}</td>
      <td title={iso(r.firstSeen)}>{fmt(r.firstSeen)}</td>
      <td title={iso(r.lastSeen)}>{fmt(r.lastSeen)}</td>
      <td>{r.controller}</td>
      <td>{r.cluster}</td>
    </tr>
  );
}

const header = (
  <thead>
    <tr>
      <th scope="col">Type</th>
      <th scope="col">Reason</th>
      <th scope="col">Object</th>
      <th scope="col">Note</th>
      <th scope="col">Count</th>
      <th scope="col">First seen</th>
      <th scope="col">Last seen</th>
      <th scope="col">Controller</th>
      <th scope="col">Cluster</th>
    </tr>
  </thead>
);

/** The list, virtualized: only the rows in view (and a margin) are in the DOM. */
function EventList(props: { rows: readonly Row[]; onObject: (t: StoryTarget) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = scroller.current!;
    const resize = () => setHeight(el.clientHeight || 600);
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const margin = 10;
  const first = Math.max(0, Math.floor(top / rowHeight) - margin);
  const last = Math.min(props.rows.length, Math.ceil((top + height) / rowHeight) + margin);
  const shown = props.rows.slice(first, last);
  return (
    <div
      class="scroller"
      ref={scroller}
      tabIndex={0}
      role="region"
      aria-label={`Events, newest first (${props.rows.length})`}
      onScroll={(e) => setTop((e.currentTarget as HTMLDivElement).scrollTop)}
    >
      <table id="events" aria-rowcount={props.rows.length}>
        {header}
        <tbody>
          <tr class="spacer" aria-hidden="true" style={{ height: `${first * rowHeight}px` }} />
          {shown.map((r) => (
            <EventRow key={r.key} row={r} onObject={props.onObject} />
          ))}
          <tr class="spacer" aria-hidden="true" style={{ height: `${(props.rows.length - last) * rowHeight}px` }} />
        </tbody>
      </table>
    </div>
  );
}

function Story(props: { target: StoryTarget; rows: readonly Row[]; onClose: () => void }) {
  const t = props.target;
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [t]);
  return (
    <aside class="story" aria-label={`Story of ${t.kind} ${t.namespace}/${t.name}`}>
      <header>
        <h2>
          {t.kind} {t.namespace ? `${t.namespace}/` : ''}
          {t.name}
        </h2>
        <button type="button" ref={close} onClick={props.onClose}>
          Close
        </button>
      </header>
      {props.rows.length === 0 ? <p>No events held for this object.</p> : null}
      <ol id="story">
        {props.rows.map((r) => (
          <li key={r.key} class={r.type === 'Warning' ? 'warning' : undefined}>
            <time dateTime={new Date(r.firstSeen).toISOString()}>{fmt(r.firstSeen)}</time> <strong>{r.reason}</strong> (
            {r.type}){r.controller ? ` by ${r.controller}` : ''}: {r.note}
            {r.count > 1 ? (
              <span class="series">
                {' '}
                — seen {r.count} times, last at {fmt(r.lastSeen)}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </aside>
  );
}

function App() {
  const initial = useMemo(readUrl, []);
  const [filters, setFilters] = useState<Filters>(initial.filters);
  const [target, setTarget] = useState<StoryTarget | null>(initial.story);
  const [token, setToken] = useState(() => sessionStorage.getItem(tokenKey) ?? '');
  const [status, setStatus] = useState<{ text: string; error: boolean }>({ text: 'starting', error: false });
  const [, setVersion] = useState(0);
  const store = useMemo(() => new EventStore(() => setVersion((v) => v + 1)), []);
  // The newest state, for changes made before the next render.
  const latest = useRef({ filters, target });

  useEffect(() => {
    const pop = () => {
      const u = readUrl();
      latest.current = { filters: u.filters, target: u.story };
      setFilters(u.filters);
      setTarget(u.story);
    };
    addEventListener('popstate', pop);
    return () => removeEventListener('popstate', pop);
  }, []);

  // The server-side part of the filters decides the watch; the note text and time window do not.
  const serverKey = JSON.stringify([
    filters.namespace,
    filters.type,
    filters.reason,
    filters.kind,
    filters.name,
    filters.controller,
    filters.cluster,
    token,
  ]);
  useEffect(() => {
    const ac = new AbortController();
    store.reset([]);
    void watchEvents({
      filters,
      token,
      base: document.baseURI,
      signal: ac.signal,
      sink: {
        reset: (items) => store.reset(items),
        upsert: (e) => store.upsert(e),
        remove: (e) => store.remove(e),
        status: (text, error = false) => setStatus({ text, error }),
      },
    });
    return () => ac.abort();
  }, [serverKey]);

  const update = (change: (f: Filters) => Filters) => {
    const f = change(latest.current.filters);
    latest.current = { ...latest.current, filters: f };
    setFilters(f);
    writeUrl(f, latest.current.target, false);
  };
  const open = (t: StoryTarget | null) => {
    latest.current = { ...latest.current, target: t };
    setTarget(t);
    writeUrl(latest.current.filters, t, false);
  };
  const all = store.rows();
  const rows = useMemo(
    () => (filters.text || filters.from || filters.to ? all.filter((r) => matchesClient(r, filters)) : all),
    [all, filters.text, filters.from, filters.to],
  );
  // The story asks the server for every event regarding the object (whatever the filters hold), and adds the
  // held events whose `related` is the object (the API has no field selector for it).
  const [fetched, setFetched] = useState<readonly Row[]>([]);
  useEffect(() => {
    setFetched([]);
    if (!target) return;
    const ac = new AbortController();
    const fieldSelector = [
      `regarding.kind=${escapeFieldValue(target.kind)}`,
      `regarding.name=${escapeFieldValue(target.name)}`,
    ].join(',');
    listAll(collectionPath(target.namespace), { fieldSelector }, { token, signal: ac.signal, base: document.baseURI })
      .then(({ items }) => setFetched(items.map(toRow)))
      .catch(() => undefined);
    return () => ac.abort();
  }, [target?.kind, target?.namespace, target?.name, token]);
  const storyRows = useMemo(() => {
    if (!target) return [];
    const byKey = new Map<string, Row>();
    for (const r of fetched) if (concerns(r, target)) byKey.set(r.key, r);
    for (const r of all) if (concerns(r, target)) byKey.set(r.key, r);
    return story(byKey.values(), target);
  }, [all, fetched, target]);

  return (
    <>
      <header class="top">
        <h1>kevents</h1>
        <p role="status" class={status.error ? 'status error' : 'status'} id="status">
          {status.text} · {rows.length} of {all.length} events
        </p>
        <TokenField
          token={token}
          onChange={(t) => {
            if (t) sessionStorage.setItem(tokenKey, t);
            else sessionStorage.removeItem(tokenKey);
            setToken(t);
          }}
        />
      </header>
      <main>
        <FilterBar filters={filters} onChange={update} />
        <Timeline rows={rows} onRange={(from, to) => update((prev) => ({ ...prev, from, to }))} />
        <div class="panes">
          <EventList rows={rows} onObject={open} />
          {target ? <Story target={target} rows={storyRows} onClose={() => open(null)} /> : null}
        </div>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
