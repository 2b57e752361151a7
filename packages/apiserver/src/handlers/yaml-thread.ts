import { Worker } from 'node:worker_threads';
import { parseJson } from '@kevents/api';
import { readYaml, readYamlJson, YamlInputError } from './yaml-input.js';
import { countMemberNames } from './json-duplicates.js';
import { refuseManyYamlJsonValues } from './wide-json.js';
import { tooManyValues } from '../registry/object-values.js';
import { defaultValueLimits } from '../registry/value-limits.js';
import type { ValueLimits } from '../registry/value-limits.js';
import type { YamlBody } from './yaml-input.js';

/**
 * Bodies up to this many characters are read on the event loop: the worst YAML reads at about
 * 2 µs a character (dense syntax errors), so this holds it under ~70 ms.
 */
export const inlineYamlLimit = 32 * 1024;

/**
 * The most bodies waiting for (or being read on) the YAML thread; one more is refused with 429
 * and `Retry-After: 1`, so the wait, and the bodies held meanwhile, stay bounded.
 */
export const maxQueuedYamlBodies = 8;

/** A body refused because {@link maxQueuedYamlBodies} are waiting already. */
export class YamlThreadBusyError extends Error {
  override readonly name = 'YamlThreadBusyError';
}

/**
 * The YAML thread's old-generation heap, in MiB. The `yaml` package holds about 1.7 KB a node: 3 MiB
 * of plain YAML (200,000 keys) peaks near 650 MB, 3 MiB of `{},` near 1.7 GB. A body that needs
 * more is refused (413) instead of growing the process until the host kills it.
 */
export const yamlThreadHeapMb = 1024;

/** A body the YAML thread ran out of heap reading. */
export class YamlThreadOutOfMemoryError extends Error {
  override readonly name = 'YamlThreadOutOfMemoryError';
}

/** How long the YAML thread may sit idle before it ends, giving its memory back. */
export const yamlThreadIdleMs = 5_000;

/** A body sent to the YAML thread. */
export interface YamlThreadRequest {
  readonly id: number;
  readonly text: string;
}

/** The YAML thread's answer: the body read, refused as {@link YamlInputError}, or a failure of the thread's own. */
export type YamlThreadReply =
  | { readonly id: number; readonly json: string; readonly duplicateKeys: string[] }
  | { readonly id: number; readonly refused: { kind: YamlInputError['kind']; message: string; char: string } }
  | { readonly id: number; readonly failed: string };

/**
 * The worker's script: beside this module once built; from the sources (the tests run them
 * through a transform, and a worker runs plain JavaScript) the built one.
 */
const workerScript = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/handlers/yaml-worker.js', import.meta.url)
  : new URL('./yaml-worker.js', import.meta.url);

interface Waiting {
  readonly resolve: (read: YamlBody) => void;
  readonly reject: (err: unknown) => void;
  readonly limits: ValueLimits;
}

/**
 * One thread that reads large YAML bodies, one at a time in the order they come, so that the
 * `yaml` package's parse (1.4 s for 3 MiB of plain YAML, up to 6 s for 3 MiB of dense syntax
 * errors) never holds the event loop: kube-apiserver reads them on a goroutine of their own. Started
 * on first use; it holds the process open only while a body is being read, and ends after
 * {@link yamlThreadIdleMs} without one; a thread that dies
 * fails what it was reading, and the next body starts a new one.
 */
class YamlThread {
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  read(text: string, limits: ValueLimits): Promise<YamlBody> {
    if (this.waiting.size >= maxQueuedYamlBodies) {
      return Promise.reject(new YamlThreadBusyError(`${maxQueuedYamlBodies} YAML bodies are being read`));
    }
    const worker = this.start();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise<YamlBody>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, limits });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, text } satisfies YamlThreadRequest);
    });
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(workerScript, { resourceLimits: { maxOldGenerationSizeMb: yamlThreadHeapMb } });
    worker.on('message', (reply: YamlThreadReply) => this.answer(reply));
    worker.on('error', (err) => this.fail(worker, err));
    worker.on('exit', (code) => this.fail(worker, new Error(`the YAML thread exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answer(reply: YamlThreadReply): void {
    const waiting = this.waiting.get(reply.id);
    if (waiting === undefined) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.rest();
    if ('refused' in reply) {
      waiting.reject(new YamlInputError(reply.refused.kind, reply.refused.message, reply.refused.char));
    } else if ('failed' in reply) {
      waiting.reject(new Error(reply.failed));
    } else {
      // The thread's JSON is parsed here: one too wide for an object is refused unread.
      const most = waiting.limits.bodyValues;
      if (countMemberNames(reply.json, most) > most) waiting.reject(tooManyValues(waiting.limits.objectValues));
      else waiting.resolve({ value: parseJson(reply.json), duplicateKeys: reply.duplicateKeys });
    }
  }

  /**
   * Unrefs the idle thread, and ends it after {@link yamlThreadIdleMs} without work: its heap
   * holds what the last body took (up to gigabytes for 3 MiB of dense YAML) until it ends.
   */
  private rest(): void {
    const worker = this.worker;
    if (worker === undefined) return;
    worker.unref();
    this.idle = setTimeout(() => {
      if (this.worker !== worker || this.waiting.size > 0) return;
      this.worker = undefined;
      void worker.terminate();
    }, yamlThreadIdleMs);
    this.idle.unref();
  }

  /**
   * The thread died: out of heap, the body it was reading (the oldest waiting) is refused as too
   * large and those behind it are asked to come again (429); anything else fails them all.
   */
  private fail(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.idle);
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    waiting.forEach((w, i) => {
      if (!outOfMemory) w.reject(err);
      else if (i === 0) w.reject(new YamlThreadOutOfMemoryError(err.message));
      else w.reject(new YamlThreadBusyError('the YAML thread restarts'));
    });
  }
}

const thread = new YamlThread();

/**
 * {@link readYaml} without holding the event loop: JSON texts (the JSON parser reads them in
 * milliseconds) and bodies up to {@link inlineYamlLimit} are read here, larger YAML on the YAML
 * thread. Every caller reads an object: one the thread finds spelling more than `limits.bodyValues`
 * member names is refused with that bound's 413 before this thread parses its answer, and a JSON
 * object spelling more values than that before it is read ({@link refuseManyYamlJsonValues}).
 */
export async function readYamlOffLoop(text: string, limits: ValueLimits = defaultValueLimits): Promise<YamlBody> {
  refuseManyYamlJsonValues(text, limits);
  const json = readYamlJson(text, limits.bodyValues);
  if (json !== undefined) return json;
  if (text.length <= inlineYamlLimit) return readYaml(text);
  return thread.read(text, limits);
}
