import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Gauge } from 'prom-client';
import type { Counter, Registry } from 'prom-client';

/** The metrics of a config reload controller (`apiserver_<kind>_config_controller_*`). */
export interface ReloadMetrics {
  readonly reloads: Counter<'status'>;
  readonly lastTimestamp: Gauge<'status' | 'apiserver_id_hash'>;
  readonly lastConfigInfo: Gauge<'apiserver_id_hash' | 'hash'>;
  readonly apiserverIdHash: string;
}

/** Outcome of one reload check. */
export type ReloadResult = 'unchanged' | 'success' | 'failure';

/** Builds the gauges of kube-apiserver's `apiserver_<kind>_config_controller_*` around the server's reload counter. */
export function reloadMetrics(
  kind: 'authentication' | 'authorization',
  registry: Registry,
  reloads: Counter<'status'>,
  apiserverIdHash: string,
): ReloadMetrics {
  const registers = [registry];
  return {
    reloads,
    lastTimestamp: new Gauge({
      name: `apiserver_${kind}_config_controller_automatic_reload_last_timestamp_seconds`,
      help: `Timestamp of the last automatic reload of ${kind} configuration split by status and apiserver identity.`,
      labelNames: ['status', 'apiserver_id_hash'],
      registers,
    }),
    lastConfigInfo: new Gauge({
      name: `apiserver_${kind}_config_controller_last_config_info`,
      help: `Information about the last applied ${kind} configuration with hash as label, split by apiserver identity.`,
      labelNames: ['apiserver_id_hash', 'hash'],
      registers,
    }),
    apiserverIdHash,
  };
}

/** Options every config reloader takes. */
export interface ConfigReloaderOptions {
  readonly metrics: ReloadMetrics;
  readonly log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  /** How often the file is read; default 1 s (kube-apiserver: file events plus a 1 min poll). */
  readonly pollMs?: number;
}

/**
 * What kube-apiserver's authentication and authorization reload controllers share: poll the
 * file, run one check at a time, and count each outcome (`reloads{status}`, the last timestamp,
 * the applied config's hash). A subclass decides what a changed file does in {@link handle}.
 */
export abstract class ConfigReloader {
  protected readonly file: string;
  readonly #o: ConfigReloaderOptions;
  /** `authentication config`, `authorization config`: how logs name it. */
  readonly #what: string;
  readonly #initialText: string;
  #running: Promise<ReloadResult> | undefined;
  #timer: NodeJS.Timeout | undefined;

  protected constructor(file: string, what: string, initialText: string, o: ConfigReloaderOptions) {
    this.file = file;
    this.#what = what;
    this.#initialText = initialText;
    this.#o = o;
  }

  /** Records the initial config's hash and starts polling the file. */
  start(): void {
    this.applied(this.#initialText);
    this.#timer = setInterval(() => void this.check(), this.#o.pollMs ?? 1000);
    this.#timer.unref();
  }

  /** Runs one check (serialised: a check while one runs waits for it). */
  check(): Promise<ReloadResult> {
    if (this.#running) return this.#running;
    this.#running = this.#read().finally(() => (this.#running = undefined));
    return this.#running;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  /** What a check does with the file's text: apply it, or say why not. */
  protected abstract handle(text: string): Promise<ReloadResult>;

  async #read(): Promise<ReloadResult> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      return this.record('failure', [`open ${this.file}: ${(e as Error).message}`]);
    }
    return this.handle(text);
  }

  /** Publishes `text` as the applied config (its hash in `last_config_info`). */
  protected applied(text: string): void {
    const m = this.#o.metrics;
    m.lastConfigInfo.reset();
    m.lastConfigInfo.set({ apiserver_id_hash: m.apiserverIdHash, hash: `sha256:${hash('sha256', text, 'hex')}` }, 1);
  }

  /** Counts one outcome; a failure is logged with its errors (the running config stays). */
  protected record(status: 'success' | 'failure', errors: readonly string[]): ReloadResult {
    const m = this.#o.metrics;
    m.reloads.inc({ status });
    m.lastTimestamp.set({ status, apiserver_id_hash: m.apiserverIdHash }, Date.now() / 1000);
    if (status === 'failure')
      this.#o.log.error({ file: this.file, errors }, `kept the running ${this.#what}: ${errors.join('; ')}`);
    return status;
  }
}
