export { registerCollected } from './collected.js';
export type { Collected, Sample } from './collected.js';
export { LabelCounter, PlainCounter } from './plain-counter.js';
export type { CounterSeries } from './plain-counter.js';
export { ResultMetrics } from './result-metrics.js';
export type { ResultSeries } from './result-metrics.js';
