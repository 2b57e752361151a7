import type { KubeObject } from '@kevents/api';
import { fromBody } from '../body.js';
import { deepFreeze } from '../deep-freeze.js';
import { unpackBody } from './packed-body.js';

/**
 * Stored objects decoded for initial events, by resourceVersion, shared by the watches that send
 * them: a direct-mapped table (slot `rv % size`), so an object lives only until another takes its
 * slot. Watches opened together take their turns in order (see `InitialTurns`) and read the same
 * snapshot, so each object is decoded once for all of them, and the watch lines encoded for that
 * object are shared too; the objects are deeply frozen, as the objects of changes are.
 */
export class SharedDecodes {
  readonly #rvs: number[];
  readonly #objects: (KubeObject | undefined)[];

  /** @param size - how many slots (1,024: four batches of initial events) */
  constructor(size = 1024) {
    this.#rvs = new Array<number>(size).fill(0);
    this.#objects = new Array<KubeObject | undefined>(size).fill(undefined);
  }

  /** The object stored as packed `body` at `rv`, decoded and frozen (or the copy already decoded). */
  get<T extends KubeObject>(body: string, rv: number): T {
    const slot = rv % this.#rvs.length;
    if (this.#rvs[slot] === rv) return this.#objects[slot] as T;
    const object = deepFreeze(fromBody<T>(unpackBody(body), rv));
    this.#rvs[slot] = rv;
    this.#objects[slot] = object;
    return object;
  }
}
