import { Gauge } from 'prom-client';
import type { Counter, Registry } from 'prom-client';
import type { ConfigObject } from '@kevents/api';
import type { ConfigWatcher } from '@kevents/config';

/** The metrics of a config reload controller (`apiserver_<kind>_config_controller_*`). */
export interface ReloadMetrics {
  readonly reloads: Counter<'status'>;
  readonly lastTimestamp: Gauge<'status' | 'apiserver_id_hash'>;
  readonly lastConfigInfo: Gauge<'apiserver_id_hash' | 'hash'>;
  readonly apiserverIdHash: string;
}

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

/**
 * Reports a config watcher's outcomes as kube-apiserver's reload controllers do: the running
 * config's hash in `last_config_info` (from the start), each success and failure counted in
 * `automatic_reloads_total{status}` with its time, and a failure logged with its errors.
 * @param what How logs name the config (`authentication config`).
 */
export function reportReloads<T extends ConfigObject>(
  watcher: ConfigWatcher<T>,
  what: string,
  metrics: ReloadMetrics,
  log: { error(o: object, msg: string): void },
): void {
  const applied = (hash: string): void => {
    metrics.lastConfigInfo.reset();
    metrics.lastConfigInfo.set({ apiserver_id_hash: metrics.apiserverIdHash, hash: `sha256:${hash}` }, 1);
  };
  const count = (status: 'success' | 'failure'): void => {
    metrics.reloads.inc({ status });
    metrics.lastTimestamp.set({ status, apiserver_id_hash: metrics.apiserverIdHash }, Date.now() / 1000);
  };
  applied(watcher.hash);
  watcher.on('reload', (o) => {
    applied(o.hash);
    count('success');
  });
  watcher.on('rejected', (o) => {
    count('failure');
    log.error({ file: watcher.path, errors: o.errors }, `kept the running ${what}: ${o.errors.join('; ')}`);
  });
}
