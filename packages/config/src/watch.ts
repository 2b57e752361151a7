import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { ConfigObject } from '@kevents/api';
import type { FieldError } from '@kevents/validation';
import { parseConfig, type LoadOptions } from './load.js';
import { ConfigError } from './errors.js';

/**
 * What putting a valid new config into effect came to: `applied`; `unchanged` (nothing to do,
 * e.g. a config equal to the running one: not counted); or errors, the running config kept.
 * With `retry`, the same content is tried again on the next check (kube-apiserver retries an
 * authentication config whose issuers are not healthy yet); otherwise only a change is.
 */
export type ApplyOutcome = 'applied' | 'unchanged' | { readonly errors: readonly string[]; readonly retry?: boolean };

/** One reload attempt, as reported to listeners and hooks. */
export type ReloadOutcome<T extends ConfigObject> =
  | { readonly status: 'success'; readonly path: string; readonly config: T; readonly hash: string }
  | {
      readonly status: 'failure';
      readonly path: string;
      /** Why, one line each. */
      readonly errors: readonly string[];
      /** The decoder's and validators' errors, when the file was invalid. */
      readonly fieldErrors?: readonly FieldError[];
      /** The hash of the content refused; undefined when the file could not be read. */
      readonly hash?: string;
    };

/** Options of {@link ConfigWatcher}. */
export interface WatchOptions<T extends ConfigObject = ConfigObject> extends LoadOptions {
  /** How often the file is read; default 1000 ms (kube-apiserver: file events plus a 1 min poll). Polling also follows symlink swaps. */
  intervalMs?: number;
  /** Receives one log line per outcome (default: none). */
  log?: (line: string) => void;
  /**
   * Puts a valid new config into effect (builds what it configures and swaps it in); an error it
   * throws is a failure. Without it, a valid config is simply the new {@link ConfigWatcher.current}.
   */
  apply?: (config: T, text: string) => ApplyOutcome | Promise<ApplyOutcome>;
}

/**
 * Watches one config file and reloads it when its content changes, as kube-apiserver's
 * authentication and authorization reload controllers do: one check at a time; a changed
 * content is decoded and validated, then applied; a valid, applied file replaces the current
 * config and emits `reload`; an unreadable, invalid or refused one keeps the running config and
 * emits `rejected`. Refused content is not tried again until it changes (unless `apply` asks
 * for a retry); an unreadable file is tried on every check. `counters` count the outcomes.
 */
export class ConfigWatcher<T extends ConfigObject = ConfigObject> extends EventEmitter<{
  reload: [ReloadOutcome<T> & { status: 'success' }];
  rejected: [ReloadOutcome<T> & { status: 'failure' }];
}> {
  readonly path: string;
  readonly counters = { success: 0, failure: 0 };
  #current: T;
  /** The hash of the running config's text. */
  #hash: string;
  /** The hash of the last content handled (applied or refused for good). */
  #tracked: string;
  #timer: NodeJS.Timeout | undefined;
  readonly #options: WatchOptions<T>;
  #running: Promise<ReloadOutcome<T> | undefined> | undefined;

  private constructor(path: string, current: T, hash: string, options: WatchOptions<T>) {
    super();
    this.path = path;
    this.#current = current;
    this.#hash = hash;
    this.#tracked = hash;
    this.#options = options;
  }

  /**
   * Reads and validates the file once (it must be valid), without watching it yet: build what
   * the config configures from {@link current}, then call {@link watch}.
   * @throws ConfigError CONFIG_READ when the file cannot be read, CONFIG_INVALID with the errors when it is invalid.
   */
  static async load<T extends ConfigObject = ConfigObject>(
    path: string,
    options: WatchOptions<T> = {},
  ): Promise<ConfigWatcher<T>> {
    const text = await readFile(path, 'utf8').catch((e: Error) => {
      throw new ConfigError('CONFIG_READ', `open ${path}: ${e.message}`, []);
    });
    const result = parseConfig<T>(text, options);
    if (!result.ok) throw new ConfigError('CONFIG_INVALID', `${path}: invalid configuration`, result.errors);
    return new ConfigWatcher<T>(path, result.config, hashOf(text), options);
  }

  /** {@link load}, then {@link watch}. */
  static async start<T extends ConfigObject = ConfigObject>(
    path: string,
    options: WatchOptions<T> = {},
  ): Promise<ConfigWatcher<T>> {
    return (await ConfigWatcher.load<T>(path, options)).watch();
  }

  /** Starts polling the file (the timer does not keep the process alive). */
  watch(): this {
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.check(), this.#options.intervalMs ?? 1000);
      this.#timer.unref();
    }
    return this;
  }

  /** The running config: the last valid, applied one. */
  get current(): T {
    return this.#current;
  }

  /** The SHA-256 (hex) of the running config's text. */
  get hash(): string {
    return this.#hash;
  }

  /**
   * Reads the file now and reloads it if it changed; returns the outcome, or undefined when
   * nothing changed. A check while one runs waits for that one.
   */
  check(): Promise<ReloadOutcome<T> | undefined> {
    this.#running ??= this.#check().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** Stops watching. */
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #check(): Promise<ReloadOutcome<T> | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      return this.#rejected({ errors: [`open ${this.path}: ${(e as Error).message}`] });
    }
    const hash = hashOf(text);
    if (hash === this.#tracked) return undefined;
    const result = parseConfig<T>(text, this.#options);
    if (!result.ok) {
      this.#tracked = hash;
      return this.#rejected({ errors: result.errors.map(String), fieldErrors: result.errors, hash });
    }
    let applied: ApplyOutcome;
    try {
      applied = (await this.#options.apply?.(result.config, text)) ?? 'applied';
    } catch (e) {
      applied = { errors: [(e as Error).message] };
    }
    if (typeof applied === 'object') {
      if (!applied.retry) this.#tracked = hash;
      return this.#rejected({ errors: applied.errors, hash });
    }
    this.#tracked = hash;
    if (applied === 'unchanged') return undefined;
    this.#current = result.config;
    this.#hash = hash;
    this.counters.success++;
    const outcome = { status: 'success' as const, path: this.path, config: result.config, hash };
    this.#options.log?.(`config reloaded: path=${this.path} hash=${hash.slice(0, 12)} status=success`);
    this.emit('reload', outcome);
    return outcome;
  }

  #rejected(
    o: Pick<ReloadOutcome<T> & { status: 'failure' }, 'errors' | 'fieldErrors' | 'hash'>,
  ): ReloadOutcome<T> & { status: 'failure' } {
    this.counters.failure++;
    const outcome = { status: 'failure' as const, path: this.path, ...o };
    this.#options.log?.(
      `config reload rejected, keeping the running configuration: path=${this.path} status=failure errors=${o.errors.join('; ')}`,
    );
    this.emit('rejected', outcome);
    return outcome;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
