import type { Registry } from 'prom-client';
import { registerCollected, type Sample } from './collected.js';

/** One `result` series: plain numbers, updated with no label hashing on the request path. */
export interface ResultSeries {
  readonly result: string;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), one more than the bounds for `+Inf`. */
  readonly buckets: number[];
  /** Written at scrape time: it has counted since the last registry reset. */
  listed: boolean;
}

/**
 * A counter and a histogram labelled by `result` only (`authentication_attempts` and
 * `authentication_duration_seconds`, `apiserver_authorization_attempts_total` and
 * `apiserver_authorization_duration_seconds`), kept as plain numbers so that counting one request
 * is a property update and a bucket search, registered on a prom-client registry, which writes
 * them like prom-client's: a series appears with its first count, in the order of first counts;
 * a registry reset empties them (series kept by callers count on).
 */
export class ResultMetrics {
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, ResultSeries>();
  #listed: ResultSeries[] = [];

  constructor(
    registry: Registry | undefined,
    counter: { name: string; help: string },
    histogram: { name: string; help: string; buckets: readonly number[] },
  ) {
    this.#bounds = histogram.buckets;
    const bounds = this.#bounds;
    const reset = (): void => {
      for (const s of this.#listed) {
        s.count = 0;
        s.sum = 0;
        s.buckets.fill(0);
        s.listed = false;
      }
      this.#listed = [];
    };
    registerCollected(
      registry,
      { name: counter.name, help: counter.help, type: 'counter', aggregator: 'sum' },
      () => this.#listed.map((s) => ({ labels: { result: s.result }, value: s.count })),
      reset,
    );
    const bucket = `${histogram.name}_bucket`;
    registerCollected(
      registry,
      { name: histogram.name, help: histogram.help, type: 'histogram', aggregator: 'sum' },
      () => {
        const values: Sample[] = [];
        for (const s of this.#listed) {
          const result = s.result;
          let cumulative = 0;
          bounds.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { le, result }, value: cumulative, metricName: bucket });
          });
          values.push({ labels: { le: '+Inf', result }, value: s.count, metricName: bucket });
          values.push({ labels: { result }, value: s.sum, metricName: `${histogram.name}_sum` });
          values.push({ labels: { result }, value: s.count, metricName: `${histogram.name}_count` });
        }
        return values;
      },
      reset,
    );
  }

  /** The series of one `result` value, created on first use; keep it to count without a lookup. */
  series(result: string): ResultSeries {
    let s = this.#series.get(result);
    if (!s) {
      s = { result, count: 0, sum: 0, buckets: new Array<number>(this.#bounds.length + 1).fill(0), listed: false };
      this.#series.set(result, s);
    }
    return s;
  }

  /** Counts one attempt of `series` (or of the series of this `result`) that took `seconds`. */
  observe(series: ResultSeries | string, seconds: number): void {
    const s = typeof series === 'string' ? this.series(series) : series;
    if (!s.listed) {
      s.listed = true;
      this.#listed.push(s);
    }
    s.count++;
    s.sum += seconds;
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    s.buckets[i]!++;
  }
}
