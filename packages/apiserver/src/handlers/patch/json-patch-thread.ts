import { Worker } from 'node:worker_threads';
import { ApiError } from '../../errors/api-error.js';
import type { Status } from '@kevents/api';
import type { FieldValidation } from '../../request/query.js';
import type { ValueLimits } from '../../registry/value-limits.js';
import { applyPatchBody, readPatch } from './apply.js';

/**
 * JSON patch texts up to this many characters are read and applied on the event loop: the
 * slowest 3 MiB shapes (arrays nested near the bound, 1.5 million one-digit numbers) take
 * 0.3-0.4 s to read there, 128 KiB of them 4-7 ms (docs/benchmarks.md, "Large JSON patches").
 * Longer ones go to the JSON patch thread.
 */
export const inlineJSONPatchLimit = 128 * 1024;

/**
 * The most JSON patches waiting for (or being applied on) the thread; past it a patch is read on
 * the event loop, as it was before the thread: the answer stays the same, only the hold returns.
 */
export const maxQueuedJSONPatches = 4;

/**
 * The JSON patch thread's old-generation heap, in MiB: 3 MiB of arrays nested near the bound
 * (1.6 million arrays) parses into ~100 MB. A patch that needs more (the thread dies) is read on
 * the event loop, as before the thread.
 */
export const jsonPatchThreadHeapMb = 1024;

/** How long the thread may sit idle before it ends, giving its memory back. */
export const jsonPatchThreadIdleMs = 5_000;

/** What the thread is asked: the work of `readPatch`, `refuseOverflowingNumbers` and `applyPatchBody`. */
export interface JSONPatchThreadRequest {
  readonly id: number;
  readonly text: string;
  /** The stored object's external JSON, as the patch handler's transform makes it. */
  readonly live: Record<string, unknown>;
  readonly fieldValidation: FieldValidation;
  readonly limits: ValueLimits;
}

/**
 * The thread's answer: the patched object (a plain object, so within `limits.bodyValues` values)
 * and the patch's strict errors; the Status of the {@link ApiError} reading or applying it threw;
 * or `inline` for anything else (a patched value that is not an object, which may be large; an
 * error that is not an ApiError), which the event loop then works out itself.
 */
export type JSONPatchThreadReply =
  | { readonly id: number; readonly patched: Record<string, unknown>; readonly strictErrors: readonly string[] }
  | { readonly id: number; readonly error: { status: Status; headers: Record<string, string> } }
  | { readonly id: number; readonly inline: true };

/** A JSON patch worked out on the thread: the patched object and strict errors, or the error to answer. */
export type JSONPatchOutcome =
  | { readonly patched: Record<string, unknown>; readonly strictErrors: readonly string[] }
  | { readonly error: ApiError };

/** The worker's script: beside this module once built; from the sources (the tests) the built one. */
const workerScript = import.meta.url.endsWith('.ts')
  ? new URL('../../../dist/handlers/patch/json-patch-worker.js', import.meta.url)
  : new URL('./json-patch-worker.js', import.meta.url);

/**
 * What the thread does with a request: `readPatch` and `applyPatchBody` of a JSON patch, as the
 * patch handler's transform runs them (its `refuseOverflowingNumbers` passes every JSON patch),
 * made into a reply that can be cloned cheaply.
 */
export function workOutJSONPatch({
  id,
  text,
  live,
  fieldValidation,
  limits,
}: JSONPatchThreadRequest): JSONPatchThreadReply {
  const type = 'application/json-patch+json';
  try {
    const patch = readPatch(text, type, fieldValidation, limits);
    const patched = applyPatchBody(type, live, patch, limits);
    // Only an object is held to the bound on values (a large array costs more to clone than to parse).
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) return { id, inline: true };
    return { id, patched: patched as Record<string, unknown>, strictErrors: patch.strictErrors ?? [] };
  } catch (err) {
    // An Invalid Status writes its own text (statusText): left to the event loop, which keeps it.
    if (!(err instanceof ApiError) || err.statusText !== undefined) return { id, inline: true };
    return { id, error: { status: err.status, headers: { ...err.headers } } };
  }
}

/** The outcome a reply stands for (undefined: the event loop works it out). */
export function outcomeOf(reply: JSONPatchThreadReply): JSONPatchOutcome | undefined {
  if ('inline' in reply) return undefined;
  if ('error' in reply) return { error: apiError(reply.error) };
  return { patched: reply.patched, strictErrors: reply.strictErrors };
}

/** An ApiError again from the Status the thread sent: the same Status, headers and class. */
function apiError({ status, headers }: { status: Status; headers: Record<string, string> }): ApiError {
  return new ApiError(
    status.code ?? 500,
    status.reason ?? '',
    status.message ?? '',
    status.details,
    headers,
    status.metadata,
  );
}

/**
 * One thread that reads and applies large JSON patches, one at a time in the order they come
 * (the scans of the text, `JSON.parse`, the operations, the count of the patched object's
 * values), so that a 3 MiB patch of small values does not hold the event loop for a third of a
 * second. Started on first use; it holds the process open only while a patch is being applied,
 * and ends after {@link jsonPatchThreadIdleMs} without one. A thread that dies (out of heap)
 * leaves its patches to the event loop, and the next patch starts a new one.
 */
class JSONPatchThread {
  #worker: Worker | undefined;
  #idle: NodeJS.Timeout | undefined;
  readonly #waiting = new Map<number, (outcome: JSONPatchOutcome | undefined) => void>();
  #nextId = 1;

  apply(request: Omit<JSONPatchThreadRequest, 'id'>): Promise<JSONPatchOutcome | undefined> {
    if (this.#waiting.size >= maxQueuedJSONPatches) return Promise.resolve(undefined);
    const worker = this.#start();
    clearTimeout(this.#idle);
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      if (this.#waiting.size === 1) worker.ref();
      worker.postMessage({ id, ...request } satisfies JSONPatchThreadRequest);
    });
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(workerScript, { resourceLimits: { maxOldGenerationSizeMb: jsonPatchThreadHeapMb } });
    worker.on('message', (reply: JSONPatchThreadReply) => this.#answer(reply));
    worker.on('error', () => this.#fail(worker));
    worker.on('exit', () => this.#fail(worker));
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #answer(reply: JSONPatchThreadReply): void {
    const resolve = this.#waiting.get(reply.id);
    if (resolve === undefined) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#rest();
    resolve(outcomeOf(reply));
  }

  /** Unrefs the idle thread, and ends it after {@link jsonPatchThreadIdleMs} without work. */
  #rest(): void {
    const worker = this.#worker;
    if (worker === undefined) return;
    worker.unref();
    this.#idle = setTimeout(() => {
      if (this.#worker !== worker || this.#waiting.size > 0) return;
      this.#worker = undefined;
      void worker.terminate();
    }, jsonPatchThreadIdleMs);
    this.#idle.unref();
  }

  /** The thread died: what it was given is left to the event loop. */
  #fail(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    clearTimeout(this.#idle);
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const resolve of waiting) resolve(undefined);
  }
}

const thread = new JSONPatchThread();

/**
 * A JSON patch text of more than {@link inlineJSONPatchLimit} characters read and applied to
 * `live` on the JSON patch thread, as `readPatch`, `refuseOverflowingNumbers` and
 * `applyPatchBody` would on the event loop: their outcome, or undefined where the event loop is
 * to work it out itself (a shorter text, a full queue, a dead thread, a patched value that is not
 * an object). `live` is not changed.
 */
export function applyJSONPatchOffLoop(
  text: string,
  live: Record<string, unknown>,
  fieldValidation: FieldValidation,
  limits: ValueLimits,
): Promise<JSONPatchOutcome | undefined> {
  if (text.length <= inlineJSONPatchLimit) return Promise.resolve(undefined);
  return thread.apply({ text, live, fieldValidation, limits });
}
