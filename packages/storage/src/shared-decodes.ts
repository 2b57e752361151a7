import type { KubeObject } from '@kevents/api';
import { deepFreeze } from './deep-freeze.js';

/**
 * Stored objects decoded for initial events, shared by the watches that send them: a
 * direct-mapped table by resourceVersion (slot `rv % size`) that keeps the stored body beside
 * its decoded object, so an object is given again only for the same resourceVersion and the same
 * body (stores that read bodies afresh, as Redis does, compare them; the memory store's are the
 * same string), and lives only until another takes its slot. Watches opened together take their
 * turns in order (see `InitialTurns`) and read the same state, so each object is decoded once
 * for all of them, and the watch lines encoded for that object are shared too. The objects are
 * deeply frozen, as the objects of changes are.
 */
export class SharedDecodes {
  readonly #rvs: number[];
  readonly #bodies: (string | undefined)[];
  readonly #objects: (KubeObject | undefined)[];

  /** @param size - how many slots (1,024: four batches of initial events) */
  constructor(size = 1024) {
    this.#rvs = new Array<number>(size).fill(0);
    this.#bodies = new Array<string | undefined>(size).fill(undefined);
    this.#objects = new Array<KubeObject | undefined>(size).fill(undefined);
  }

  /** The object stored as `body` at `rv`: `decode(body, rv)`, frozen (or the copy already decoded). */
  get<T extends KubeObject>(body: string, rv: number, decode: (body: string, rv: number) => T): T {
    const slot = rv % this.#rvs.length;
    if (this.#rvs[slot] === rv && this.#bodies[slot] === body) return this.#objects[slot] as T;
    const object = deepFreeze(decode(body, rv));
    this.#rvs[slot] = rv;
    this.#bodies[slot] = body;
    this.#objects[slot] = object;
    return object;
  }
}
