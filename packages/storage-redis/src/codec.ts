import type { LoggedChange } from '@kevents/storage';

/** A stored object: its resourceVersion, uid (JSON) and body. */
export interface StoredValue {
  readonly rv: number;
  readonly uidJson: string;
  readonly body: string;
}

export { toBody, fromBody } from '@kevents/storage';

/** JSON of a uid as the write script compares it. */
export const uidJson = (uid: string | undefined): string => JSON.stringify(uid ?? '');

/** Parses `<rv>\n<uid JSON>\n<body>`. */
export function parseValue(v: string): StoredValue {
  const a = v.indexOf('\n');
  const b = v.indexOf('\n', a + 1);
  return { rv: Number(v.slice(0, a)), uidJson: v.slice(a + 1, b), body: v.slice(b + 1) };
}

/** One change read from the Stream. */
export interface Change extends LoggedChange {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: string;
  readonly namespace: string;
  readonly key: string;
  /** The new body; for DELETED the last state. */
  readonly body: string;
  /** For MODIFIED: the body it replaced. */
  readonly prev: string | undefined;
  /** Redis time of the write, ms. */
  readonly time: number;
}

const types = { A: 'ADDED', M: 'MODIFIED', D: 'DELETED' } as const;

/** The resourceVersion of a Stream id `<rv>-0`. */
export const idToRv = (id: string): number => Number(id.slice(0, id.indexOf('-')));

/** Decodes one Stream entry. */
export function decodeEntry(id: string, fields: readonly string[]): Change {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]] = fields[i + 1];
  const type = types[f['t'] as keyof typeof types];
  const prev = f['p'] === undefined ? undefined : parseValue(f['p']).body;
  return {
    rv: idToRv(id),
    type,
    resource: f['r'] ?? '',
    namespace: f['n'] ?? '',
    key: f['k'] ?? '',
    body: type === 'DELETED' ? prev! : (f['b'] ?? ''),
    prev: type === 'MODIFIED' ? prev : undefined,
    time: Number(f['m'] ?? 0),
  };
}
