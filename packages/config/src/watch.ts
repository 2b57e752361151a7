import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { ConfigObject } from '@kevents/api';
import type { FieldError } from '@kevents/validation';
import { parseConfig, type LoadOptions } from './load.js';
import { ConfigError } from './errors.js';

/** One reload attempt, as reported to listeners and hooks. */
export type ReloadOutcome<T extends ConfigObject> =
  | { status: 'success'; path: string; config: T; hash: string }
  | { status: 'failure'; path: string; errors: FieldError[]; hash: string };

/** Options of {@link ConfigWatcher}. */
export interface WatchOptions extends LoadOptions {
  /** How often the file is read and hashed; default 1000 ms. Polling also follows symlink swaps. */
  intervalMs?: number;
  /** Receives one log line per outcome (default: none). */
  log?: (line: string) => void;
}

/**
 * Watches one config file and reloads it when its content changes. A valid new file replaces the
 * current config and emits `reload`; an invalid one keeps the running config and emits `rejected`.
 * `counters` feed the apiserver's metrics (e.g. a prom-client Counter labelled by status).
 */
export class ConfigWatcher<T extends ConfigObject = ConfigObject> extends EventEmitter<{
  reload: [ReloadOutcome<T> & { status: 'success' }];
  rejected: [ReloadOutcome<T> & { status: 'failure' }];
}> {
  readonly path: string;
  readonly counters = { success: 0, failure: 0 };
  #current: T;
  #hash: string;
  #timer: NodeJS.Timeout | undefined;
  #options: WatchOptions;
  #checking = false;

  private constructor(path: string, current: T, hash: string, options: WatchOptions) {
    super();
    this.path = path;
    this.#current = current;
    this.#hash = hash;
    this.#options = options;
  }

  /**
   * Loads the file once (it must be valid) and starts watching it.
   * @throws ConfigError CONFIG_INVALID with the errors when the initial file is invalid.
   */
  static async start<T extends ConfigObject = ConfigObject>(
    path: string,
    options: WatchOptions = {},
  ): Promise<ConfigWatcher<T>> {
    const text = await readFile(path, 'utf8').catch((e: Error) => {
      throw new ConfigError('CONFIG_READ', `open ${path}: ${e.message}`, []);
    });
    const result = parseConfig<T>(text, options);
    if (!result.ok) throw new ConfigError('CONFIG_INVALID', `${path}: invalid configuration`, result.errors);
    const w = new ConfigWatcher<T>(path, result.config, hashOf(text), options);
    w.#timer = setInterval(() => void w.check(), options.intervalMs ?? 1000);
    w.#timer.unref();
    return w;
  }

  /** The running config: the last valid one. */
  get current(): T {
    return this.#current;
  }

  /** Reads the file now and reloads it if it changed; returns the outcome, or undefined if unchanged. */
  async check(): Promise<ReloadOutcome<T> | undefined> {
    if (this.#checking) return undefined;
    this.#checking = true;
    try {
      let text: string;
      try {
        text = await readFile(this.path, 'utf8');
      } catch {
        return undefined;
      }
      const hash = hashOf(text);
      if (hash === this.#hash) return undefined;
      this.#hash = hash;
      const result = parseConfig<T>(text, this.#options);
      if (result.ok) {
        this.#current = result.config;
        this.counters.success++;
        const outcome = { status: 'success' as const, path: this.path, config: result.config, hash };
        this.#options.log?.(`config reloaded: path=${this.path} hash=${hash.slice(0, 12)} status=success`);
        this.emit('reload', outcome);
        return outcome;
      }
      this.counters.failure++;
      const outcome = { status: 'failure' as const, path: this.path, errors: result.errors, hash };
      this.#options.log?.(
        `config reload rejected, keeping the running configuration: path=${this.path} status=failure errors=${result.errors.map((e) => e.toString()).join('; ')}`,
      );
      this.emit('rejected', outcome);
      return outcome;
    } finally {
      this.#checking = false;
    }
  }

  /** Stops watching. */
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
