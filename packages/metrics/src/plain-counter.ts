import type { Registry } from 'prom-client';
import { registerCollected } from './collected.js';

/** One series of a {@link PlainCounter}: get it once with {@link PlainCounter.series}, then count with {@link PlainCounter.inc}. */
export interface CounterSeries {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
  /** Written at scrape time: it has counted since the last registry reset. */
  listed: boolean;
}

/**
 * A counter kept as plain numbers (no label hashing per count), registered on a prom-client
 * registry, which writes it like a prom-client counter: a series appears with its first count,
 * in the order of first counts, its labels in the order they were given; a registry reset
 * empties it (series kept by callers count on, and appear again with their next count).
 */
export class PlainCounter {
  readonly #series = new Map<string, CounterSeries>();
  #listed: CounterSeries[] = [];

  constructor(registry: Registry | undefined, o: { name: string; help: string }) {
    registerCollected(
      registry,
      { name: o.name, help: o.help, type: 'counter', aggregator: 'sum' },
      () => this.#listed.map((s) => ({ labels: s.labels, value: s.value })),
      () => {
        for (const s of this.#listed) {
          s.value = 0;
          s.listed = false;
        }
        this.#listed = [];
      },
    );
  }

  /** The series of these labels (the same object for the same label values in the same order); it counts nothing yet. */
  series(labels: Readonly<Record<string, string>>): CounterSeries {
    const key = JSON.stringify(Object.entries(labels));
    let s = this.#series.get(key);
    if (!s) {
      s = { labels: { ...labels }, value: 0, listed: false };
      this.#series.set(key, s);
    }
    return s;
  }

  /** Counts one in `series`. */
  inc(series: CounterSeries): void {
    if (!series.listed) {
      series.listed = true;
      this.#listed.push(series);
    }
    series.value++;
  }
}

/**
 * A counter with one label whose values come from a small fixed set (the caller bounds it),
 * written like a prom-client counter: a value appears with its first count.
 */
export class LabelCounter {
  readonly #counter: PlainCounter;
  readonly #label: string;
  readonly #series = new Map<string, CounterSeries>();

  constructor(registry: Registry | undefined, o: { name: string; help: string; label: string }) {
    this.#counter = new PlainCounter(registry, o);
    this.#label = o.label;
  }

  /** Counts one for `value`. */
  inc(value: string): void {
    let s = this.#series.get(value);
    if (s === undefined) this.#series.set(value, (s = this.#counter.series({ [this.#label]: value })));
    this.#counter.inc(s);
  }
}
