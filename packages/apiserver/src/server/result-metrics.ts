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
 * A counter and a histogram labelled by `result` only (`apiserver_authorization_attempts_total`
 * and `apiserver_authorization_duration_seconds`), kept as plain numbers so that counting one
 * request is a property update and a bucket search, registered on a prom-client registry, which
 * writes them in the Prometheus text format like any other metric (as `@kevents/authn` does for
 * its authentication metrics). Series are written in the order of their first count, as
 * prom-client writes them.
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
    const reset = (): void => series.clear();
    const attempts: CollectedMetric = {
      ...counter,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        ...counter,
        type: 'counter',
        aggregator: 'sum',
        values: [...series].map(([result, s]) => ({ labels: { result }, value: s.count })),
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

  /** Counts one attempt with this `result` that took `seconds`; its series is made (and written) from its first count. */
  observe(result: string, seconds: number): void {
    let s = this.#series.get(result);
    if (!s) {
      s = { count: 0, sum: 0, buckets: new Array<number>(this.#bounds.length + 1).fill(0) };
      this.#series.set(result, s);
    }
    s.count++;
    s.sum += seconds;
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    s.buckets[i]!++;
  }
}
