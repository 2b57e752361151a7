import { randomBytes, randomUUID } from 'node:crypto';
import { timeNow } from '@kevents/api';
import type { CoreEvent } from '@kevents/api';
import { badRequest } from '../errors/api-error.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxGeneratedNameLength = 58;

let pool = randomBytes(0);
let offset = 0;

/** A uniformly random index below `n` (n <= 256), from a pooled buffer of secure random bytes. */
function randomIndex(n: number): number {
  const limit = 256 - (256 % n);
  for (;;) {
    if (offset >= pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const b = pool[offset++]!;
    if (b < limit) return b % n;
  }
}

/** `names.SimpleNameGenerator`: the prefix (cut to 58) plus five random characters. */
export function generateName(prefix: string): string {
  let base = prefix.length > maxGeneratedNameLength ? prefix.slice(0, maxGeneratedNameLength) : prefix;
  for (let i = 0; i < 5; i++) base += nameAlphabet[randomIndex(nameAlphabet.length)];
  return base;
}

/** Checks the body's namespace against the URL's (an empty body namespace takes the URL's). */
export function checkNamespace(e: CoreEvent, namespace: string): void {
  if (e.metadata.namespace && e.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  e.metadata.namespace = namespace;
}

/**
 * `rest.BeforeCreate`: server-set metadata for a new object. The store sets resourceVersion;
 * a client-set one is refused, as Kubernetes' storage refuses it.
 */
export function prepareForCreate(e: CoreEvent, namespace: string): void {
  e.metadata = { ...e.metadata };
  checkNamespace(e, namespace);
  if (e.metadata.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
  if (!e.metadata.name && e.metadata.generateName) e.metadata.name = generateName(e.metadata.generateName);
  e.metadata.uid = randomUUID();
  e.metadata.creationTimestamp = timeNow();
  delete e.metadata.deletionTimestamp;
  delete e.metadata.deletionGracePeriodSeconds;
  delete e.metadata.generation;
  delete e.metadata.selfLink;
}

/** `rest.BeforeUpdate`: keep the system fields of the stored object. */
export function prepareForUpdate(e: CoreEvent, old: CoreEvent): void {
  e.metadata = { ...e.metadata };
  if (!e.metadata.uid) e.metadata.uid = old.metadata.uid;
  if (old.metadata.creationTimestamp) e.metadata.creationTimestamp = old.metadata.creationTimestamp;
  if (old.metadata.generateName !== undefined && e.metadata.generateName === undefined) e.metadata.generateName = old.metadata.generateName;
  delete e.metadata.selfLink;
  delete e.metadata.generation;
  if (old.metadata.deletionTimestamp) e.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
  else delete e.metadata.deletionTimestamp;
}
