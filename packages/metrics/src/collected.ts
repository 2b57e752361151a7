import type { Registry } from 'prom-client';

/** One sample as prom-client's registry writes it. */
export interface Sample {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
}

/** A metric's samples in the shape prom-client's registry collects (`get()`). */
export interface Collected {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  readonly values: Sample[];
}

/**
 * Registers a metric kept in plain numbers on a prom-client registry: the registry calls `collect`
 * at scrape time and writes its samples in the Prometheus text format like any other metric's,
 * and calls `reset` on `resetMetrics()`.
 */
export function registerCollected(
  registry: Registry | undefined,
  meta: Omit<Collected, 'values'>,
  collect: () => Sample[],
  reset: () => void,
): void {
  registry?.registerMetric({
    ...meta,
    get: async (): Promise<Collected> => ({ ...meta, values: collect() }),
    reset,
  } as never);
}
