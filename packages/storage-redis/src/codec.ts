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
}

/** The resourceVersion of a Stream id `<rv>-0`. */
export const idToRv = (id: string): number => Number(id.slice(0, id.indexOf('-')));

/**
 * A Stream entry's field names, one byte each (the write script's `XADD`): t, r, n, k, b, p, and
 * m (the Redis time of the write, read only by the compaction by age, in Lua).
 */
const fieldType = 0x74;
const fieldResource = 0x72;
const fieldNamespace = 0x6e;
const fieldKey = 0x6b;
const fieldBody = 0x62;
const fieldPrev = 0x70;

/** A change's type from its one-byte code (A, M, D). */
function typeOf(value: Buffer): Change['type'] | undefined {
  if (value.length !== 1) return undefined;
  switch (value[0]) {
    case 0x41:
      return 'ADDED';
    case 0x4d:
      return 'MODIFIED';
    case 0x44:
      return 'DELETED';
    default:
      return undefined;
  }
}

/** The resourceVersion of a Stream id `<rv>-0` as Redis sent it. */
export function bufferIdToRv(id: Buffer): number {
  let rv = 0;
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    if (c === 0x2d) return rv;
    rv = rv * 10 + (c - 0x30);
  }
  return rv;
}

/**
 * Decodes one Stream entry as Redis sent it (`XREAD`/`XRANGE` with buffer replies): each field
 * name is one byte, and only the values a change keeps become strings (the body as UTF-8, as it
 * was written), with no generic conversion of the whole reply. Fields it does not know are
 * skipped.
 */
export function decodeEntry(id: Buffer, fields: readonly Buffer[]): Change {
  let type: Change['type'] | undefined;
  let resource = '';
  let namespace = '';
  let key = '';
  let body: string | undefined;
  let prev: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    if (name.length !== 1) continue;
    const value = fields[i + 1];
    switch (name[0]) {
      case fieldType:
        type = typeOf(value);
        break;
      case fieldResource:
        resource = value.toString();
        break;
      case fieldNamespace:
        namespace = value.toString();
        break;
      case fieldKey:
        key = value.toString();
        break;
      case fieldBody:
        body = value.toString();
        break;
      case fieldPrev:
        prev = parseValue(value.toString()).body;
        break;
    }
  }
  return {
    rv: bufferIdToRv(id),
    type: type!,
    resource,
    namespace,
    key,
    body: type === 'DELETED' ? prev! : (body ?? ''),
    prev: type === 'MODIFIED' ? prev : undefined,
  };
}
