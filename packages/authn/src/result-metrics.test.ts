import { describe, expect, it } from '@jest/globals';
import { Counter, Histogram, Registry } from 'prom-client';
import { ResultMetrics } from './result-metrics.js';

const counter = { name: 'authentication_attempts', help: 'Counter of authenticated attempts.' };
const histogram = {
  name: 'authentication_duration_seconds',
  help: 'Authentication duration in seconds broken out by result.',
  buckets: [0.001, 0.002, 0.004, 0.008],
};

describe('ResultMetrics', () => {
  it('writes exactly what prom-client writes for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const m = new ResultMetrics(ours, counter, histogram);
    const c = new Counter({ ...counter, labelNames: ['result'], registers: [theirs] });
    const h = new Histogram({ ...histogram, labelNames: ['result'], registers: [theirs] });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    const seen: [string, number][] = [
      ['success', 0.0005],
      ['success', 0.001],
      ['failure', 0.003],
      ['success', 0.0081],
      ['error', 2.5],
      ['success', 0],
    ];
    for (const [result, seconds] of seen) {
      m.observe(m.series(result), seconds);
      c.inc({ result });
      h.observe({ result }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toMatch(/^authentication_duration_seconds_bucket\{le="0.001",result="success"\} 3$/m);
    expect(text).toMatch(/^authentication_duration_seconds_bucket\{le="\+Inf",result="success"\} 4$/m);
    expect(text).toMatch(/^authentication_attempts\{result="error"\} 1$/m);
  });

  it('a reset of the registry empties the series, as prom-client does; counting goes on', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const m = new ResultMetrics(ours, counter, histogram);
    const c = new Counter({ ...counter, labelNames: ['result'], registers: [theirs] });
    const h = new Histogram({ ...histogram, labelNames: ['result'], registers: [theirs] });
    const success = m.series('success');
    m.observe(success, 0.003);
    c.inc({ result: 'success' });
    h.observe({ result: 'success' }, 0.003);
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    m.observe(success, 0.0001);
    c.inc({ result: 'success' });
    h.observe({ result: 'success' }, 0.0001);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
