import type { Registry } from 'prom-client';

/** One `result` series: plain numbers, updated with no label hashing on the request path. */
export interface ResultSeries {
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), one more than the bounds for `+Inf`. */
  readonly buckets: number[];
}

interface Sample {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
}

interface Collected {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  readonly values: Sample[];
}

/** A metric in the shape prom-client's registry collects (`get()`), written from plain series at scrape time. */
interface CollectedMetric extends Omit<Collected, 'values'> {
  get(): Promise<Collected>;
  reset(): void;
}

/**
 * A counter and a histogram labelled by `result` only (`authentication_attempts` and
 * `authentication_duration_seconds`), kept as plain numbers so that counting one request is a
 * property update and a bucket search, registered on a prom-client registry, which writes them in
 * the Prometheus text format like any other metric.
 */
export class ResultMetrics {
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, ResultSeries>();

  constructor(
    registry: Registry,
    counter: { name: string; help: string },
    histogram: { name: string; help: string; buckets: readonly number[] },
  ) {
    this.#bounds = histogram.buckets;
    const series = this.#series;
    const bounds = this.#bounds;
    const reset = (): void => {
      for (const s of series.values()) {
        s.count = 0;
        s.sum = 0;
        s.buckets.fill(0);
      }
    };
    const attempts: CollectedMetric = {
      ...counter,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        ...counter,
        type: 'counter',
        aggregator: 'sum',
        values: [...series]
          .filter(([, s]) => s.count > 0)
          .map(([result, s]) => ({ labels: { result }, value: s.count })),
      }),
      reset,
    };
    const durations: CollectedMetric = {
      name: histogram.name,
      help: histogram.help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: Sample[] = [];
        for (const [result, s] of series) {
          if (s.count === 0) continue;
          let cumulative = 0;
          bounds.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { le, result }, value: cumulative, metricName: `${histogram.name}_bucket` });
          });
          values.push({ labels: { le: '+Inf', result }, value: s.count, metricName: `${histogram.name}_bucket` });
          values.push({ labels: { result }, value: s.sum, metricName: `${histogram.name}_sum` });
          values.push({ labels: { result }, value: s.count, metricName: `${histogram.name}_count` });
        }
        return { name: histogram.name, help: histogram.help, type: 'histogram', aggregator: 'sum', values };
      },
      reset,
    };
    registry.registerMetric(attempts as never);
    registry.registerMetric(durations as never);
  }

  /**
   * The series of one `result` value, created on first use; keep it to count without a lookup. A
   * series is written once it has counted something (again after a reset of the registry).
   */
  series(result: string): ResultSeries {
    let s = this.#series.get(result);
    if (!s) {
      s = { count: 0, sum: 0, buckets: new Array<number>(this.#bounds.length + 1).fill(0) };
      this.#series.set(result, s);
    }
    return s;
  }

  /** Counts one attempt of `series` that took `seconds`. */
  observe(series: ResultSeries, seconds: number): void {
    series.count++;
    series.sum += seconds;
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    series.buckets[i]!++;
  }
}

/**
 * A counter with one label whose values come from a small fixed set (the caller bounds it), kept
 * as plain numbers and written like a prom-client counter; a value appears with its first count.
 */
export class LabelCounter {
  readonly #counts = new Map<string, number>();

  constructor(registry: Registry, o: { name: string; help: string; label: string }) {
    const counts = this.#counts;
    const metric: CollectedMetric = {
      name: o.name,
      help: o.help,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name: o.name,
        help: o.help,
        type: 'counter',
        aggregator: 'sum',
        values: [...counts].filter(([, n]) => n > 0).map(([value, n]) => ({ labels: { [o.label]: value }, value: n })),
      }),
      reset: () => counts.clear(),
    };
    registry.registerMetric(metric as never);
  }

  /** Counts one for `value`. */
  inc(value: string): void {
    this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
  }
}
