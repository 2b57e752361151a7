import type { Registry } from 'prom-client';

/** One series of a {@link PlainCounter}: keep it and count with `value++`-cheap {@link PlainCounter.inc}. */
export interface CounterSeries {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
}

interface Collected {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter';
  readonly aggregator: 'sum';
  readonly values: { labels: Readonly<Record<string, string>>; value: number }[];
}

/**
 * A counter kept as plain numbers (no label hashing per count), registered on a prom-client
 * registry, which writes it like a prom-client counter: a series appears with its first count,
 * in the order of first counts, its labels in the order they were given; a registry reset
 * empties it.
 */
export class PlainCounter {
  readonly #series = new Map<string, CounterSeries>();

  constructor(registry: Registry | undefined, o: { name: string; help: string }) {
    const series = this.#series;
    const metric = {
      name: o.name,
      help: o.help,
      type: 'counter' as const,
      aggregator: 'sum' as const,
      get: async (): Promise<Collected> => ({
        name: o.name,
        help: o.help,
        type: 'counter',
        aggregator: 'sum',
        values: [...series.values()].map((s) => ({ labels: s.labels, value: s.value })),
      }),
      reset: (): void => series.clear(),
    };
    registry?.registerMetric(metric as never);
  }

  /**
   * Counts one for these labels (keyed by their values in the order given, so a caller passes
   * its label names in one fixed order).
   */
  inc(labels: Readonly<Record<string, string>>): void {
    let key = '';
    for (const k in labels) key += `${labels[k]}\u0000`;
    let s = this.#series.get(key);
    if (!s) {
      s = { labels: { ...labels }, value: 0 };
      this.#series.set(key, s);
    }
    s.value++;
  }
}
