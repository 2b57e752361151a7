import { expect } from '@jest/globals';

/** A Kubernetes object as JSON on the wire. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KubeObject = Record<string, any>;

/** The answer to one HTTP request: status, headers, the parsed JSON body (or the text). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly text: string;
}

/** Options of {@link call}. */
export interface CallOptions {
  readonly method?: string;
  /** A string is sent as is; anything else as JSON. */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One HTTP request with the global `fetch`; never throws on a status code. */
export async function call(url: string, options: CallOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const res = await fetch(url, { method: options.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Expects a `metav1.Status` failure with this code and reason, and the message when given. */
export function expectStatus(
  answer: HttpAnswer,
  code: number,
  reason: string | undefined,
  message?: string | RegExp,
): void {
  const summary = `${answer.status} ${answer.text.slice(0, 600)}`;
  expect({ status: answer.status, summary }).toEqual({ status: code, summary });
  expect(answer.body.kind).toBe('Status');
  expect(answer.body.apiVersion).toBe('v1');
  expect(answer.body.status).toBe('Failure');
  expect(answer.body.code).toBe(code);
  if (reason === undefined) expect(answer.body.reason ?? '').toBe('');
  else expect(answer.body.reason).toBe(reason);
  if (typeof message === 'string') expect(answer.body.message).toBe(message);
  else if (message) expect(answer.body.message).toMatch(message);
}

/** Expects a 2xx (or the given) status, showing the body when it is not. */
export function expectCode(answer: HttpAnswer, code: number): void {
  const summary = `${answer.status} ${answer.text.slice(0, 600)}`;
  expect({ status: answer.status, summary }).toEqual({ status: code, summary });
}

/** Escapes a field-selector value (`fields.EscapeValue`): `\`, `,` and `=`. */
export const escapeFieldValue = (v: string): string => v.replace(/[\\,=]/g, (c) => `\\${c}`);

/** A query string from pairs (values URL-encoded). */
export function query(params: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let counter = 0;
/** A DNS-label name, unique in this process: `<prefix>-<random>-<n>`. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${Math.random().toString(36).slice(2, 7)}-${counter}`;
}

/** One event of a watch stream. */
export interface WatchEventLine {
  readonly type: string;
  readonly object: KubeObject;
}

/**
 * Reads a watch stream (`{"type":...,"object":...}` lines) as it arrives. `next()` waits for
 * the next event; `ended` says whether the server closed the stream.
 */
export class WatchStream {
  readonly status: number;
  readonly headers: Headers;
  readonly #abort: AbortController;
  readonly #queue: WatchEventLine[] = [];
  #waiters: (() => void)[] = [];
  #ended = false;
  #error: unknown;

  private constructor(status: number, headers: Headers, abort: AbortController) {
    this.status = status;
    this.headers = headers;
    this.#abort = abort;
  }

  /** Opens a watch; the caller closes it with {@link close}. */
  static async open(url: string): Promise<WatchStream> {
    const abort = new AbortController();
    const res = await fetch(url, { signal: abort.signal, headers: { accept: 'application/json' } });
    const w = new WatchStream(res.status, res.headers, abort);
    void w.#pump(res);
    return w;
  }

  async #pump(res: Response): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      if (!res.body) return;
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) this.#queue.push(JSON.parse(line) as WatchEventLine);
        }
        this.#wake();
      }
      if (buf.trim()) this.#queue.push(JSON.parse(buf) as WatchEventLine);
    } catch (err) {
      if (!this.#abort.signal.aborted) this.#error = err;
    } finally {
      this.#ended = true;
      this.#wake();
    }
  }

  #wake(): void {
    const ws = this.#waiters;
    this.#waiters = [];
    for (const w of ws) w();
  }

  /** Whether the server ended the stream (and every line was read). */
  get ended(): boolean {
    return this.#ended && this.#queue.length === 0;
  }

  /** The next event, or undefined when the stream ends or `ms` pass first. */
  async next(ms = 5000): Promise<WatchEventLine | undefined> {
    const deadline = Date.now() + ms;
    while (this.#queue.length === 0) {
      if (this.#ended) {
        if (this.#error) throw this.#error;
        return undefined;
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.#queue.shift();
  }

  /** The next event, failing the test when none comes within `ms`. */
  async expectNext(ms = 5000): Promise<WatchEventLine> {
    const ev = await this.next(ms);
    if (!ev) throw new Error(`no watch event within ${ms} ms`);
    return ev;
  }

  /** The next `n` events (skipping BOOKMARKs unless asked). */
  async take(n: number, { bookmarks = false, ms = 5000 } = {}): Promise<WatchEventLine[]> {
    const out: WatchEventLine[] = [];
    while (out.length < n) {
      const ev = await this.expectNext(ms);
      if (ev.type === 'BOOKMARK' && !bookmarks) continue;
      out.push(ev);
    }
    return out;
  }

  /** Events that arrive within `ms` (BOOKMARKs dropped). */
  async drain(ms: number): Promise<WatchEventLine[]> {
    const out: WatchEventLine[] = [];
    const deadline = Date.now() + ms;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return out;
      const ev = await this.next(left);
      if (!ev) return out;
      if (ev.type !== 'BOOKMARK') out.push(ev);
    }
  }

  /** Waits until the server ends the stream; resolves false after `ms`. */
  async waitEnd(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.#ended) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await this.next(left);
      this.#queue.length = 0;
    }
    return true;
  }

  close(): void {
    this.#abort.abort();
  }
}
