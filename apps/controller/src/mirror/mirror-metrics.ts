import { Counter, Gauge, Histogram, type RuntimeMetrics } from '@kevents/controller-runtime';

/** The mirror's Prometheus metrics, registered beside controller-runtime's. */
export class MirrorMetrics {
  /** `kevents_mirror_events_total{cluster,result}`: created, updated, unchanged, failed. */
  readonly events: Counter<'cluster' | 'result'>;
  /** `kevents_mirror_lag_seconds{cluster}`: from the source's write to kevents' write. */
  readonly lag: Histogram<'cluster'>;
  /** `kevents_mirror_source_up{cluster}`: 1 while the source's list and watch answer. */
  readonly sourceUp: Gauge<'cluster'>;

  constructor(runtime: RuntimeMetrics) {
    const registers = [runtime.registry];
    this.events = new Counter({
      name: 'kevents_mirror_events_total',
      help: 'Source events handled by the mirror, by cluster and result (created, updated, unchanged, failed).',
      labelNames: ['cluster', 'result'],
      registers,
    });
    this.lag = new Histogram({
      name: 'kevents_mirror_lag_seconds',
      help: "Time from a source event's write in its cluster to its copy's write in kevents.",
      labelNames: ['cluster'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800],
      registers,
    });
    this.sourceUp = new Gauge({
      name: 'kevents_mirror_source_up',
      help: "1 while the source cluster's list and watch of events answer, 0 after an error.",
      labelNames: ['cluster'],
      registers,
    });
  }
}
