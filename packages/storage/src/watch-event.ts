import type { KubeObject } from '@kevents/api';
import { fromBody } from './body.js';
import { deepFreeze } from './deep-freeze.js';
import type { KeyPrefix, Predicate, StorageWatchEvent } from './interface.js';

/** One logged change, as a store's change log or stream holds it. */
export interface LoggedChange {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly rv: number;
  readonly resource: string;
  readonly namespace: string;
  /** The object after the change (for DELETED: its last state). */
  readonly body: string;
  /** The object before a MODIFIED change. */
  readonly prev?: string | undefined;
}

/**
 * How many recent changes keep their parsed objects. A change reaches all watches that are
 * caught up within one wake-up, so only a short tail needs them; a watch further behind parses
 * again. Keeping parsed objects only that long lets them die young in the garbage collector's
 * nursery rather than be promoted with the (flat, cheap) bodies the stores retain for history,
 * which keeps full collections, and their pauses, rare.
 */
const parsedLimit = 256;
interface Parsed {
  readonly object: KubeObject;
  prev?: KubeObject;
  /** The event of a watch without predicate (the same for all of them). */
  plain?: StorageWatchEvent;
}
const parsed = new Map<LoggedChange, Parsed>();

/** The change's objects, parsed once however many watchers see the change (while it is recent). */
function objectsOf(c: LoggedChange): Parsed {
  let p = parsed.get(c);
  if (p === undefined) {
    p = { object: deepFreeze(fromBody(c.body, c.rv)) };
    parsed.set(c, p);
    if (parsed.size > parsedLimit) parsed.delete(parsed.keys().next().value!);
  }
  return p;
}

const prevOf = (c: LoggedChange): KubeObject => {
  const p = objectsOf(c);
  p.prev ??= deepFreeze(fromBody(c.prev ?? c.body, c.rv));
  return p.prev;
};

/**
 * The event a change means for a watch of `prefix`, with Kubernetes' predicate transitions: an
 * object that starts matching arrives as ADDED, one that stops matching as DELETED (with its
 * previous state), and changes outside the prefix or the predicate are skipped (undefined).
 * The objects are parsed once per change, deeply frozen, and shared by every watcher that
 * receives it (as Kubernetes' watch cache shares its objects).
 */
export function watchEventFor<T extends KubeObject>(
  c: LoggedChange,
  prefix: KeyPrefix,
  predicate: Predicate<T> | undefined,
): StorageWatchEvent<T> | undefined {
  if (c.resource !== prefix.resource || (prefix.namespace !== undefined && c.namespace !== prefix.namespace))
    return undefined;
  const p = objectsOf(c);
  if (predicate === undefined)
    return (p.plain ??= Object.freeze({
      type: c.type,
      object: p.object,
      resourceVersion: String(c.rv),
    })) as StorageWatchEvent<T>;
  const resourceVersion = String(c.rv);
  const object = p.object as T;
  const now = predicate(object);
  if (c.type !== 'MODIFIED') return now ? { type: c.type, object, resourceVersion } : undefined;
  const prev = prevOf(c) as T;
  const before = predicate(prev);
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', object, resourceVersion };
  return before ? { type: 'DELETED', object: prev, resourceVersion } : undefined;
}
