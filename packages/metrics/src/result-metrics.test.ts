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

const authzCounter = {
  name: 'apiserver_authorization_attempts_total',
  help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
};
const authzHistogram = {
  name: 'apiserver_authorization_duration_seconds',
  help: 'Authorization duration in seconds broken out by result.',
  buckets: Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i),
};

const pair = () => {
  const ours = new Registry();
  const theirs = new Registry();
  const m = new ResultMetrics(ours, authzCounter, authzHistogram);
  const c = new Counter({ ...authzCounter, labelNames: ['result'], registers: [theirs] });
  const h = new Histogram({ ...authzHistogram, labelNames: ['result'], registers: [theirs] });
  const observe = (result: string, seconds: number): void => {
    m.observe(result, seconds);
    c.inc({ result });
    h.observe({ result }, seconds);
  };
  return { ours, theirs, observe };
};

describe('ResultMetrics (by result name)', () => {
  it('writes exactly what prom-client writes for the same observations, series in order of first count', async () => {
    const { ours, theirs, observe } = pair();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    const seen: [string, number][] = [
      ['denied', 0.0005],
      ['allowed', 0.001],
      ['allowed', 0.0010001],
      ['error', 0.003],
      ['allowed', 0.0081],
      ['no-opinion', 20],
      ['allowed', 0],
      ['denied', 16.384],
    ];
    for (const [result, seconds] of seen) observe(result, seconds);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toMatch(/^apiserver_authorization_duration_seconds_bucket\{le="0.001",result="allowed"\} 2$/m);
    expect(text).toMatch(/^apiserver_authorization_duration_seconds_bucket\{le="\+Inf",result="allowed"\} 4$/m);
    expect(text.indexOf('result="denied"')).toBeLessThan(text.indexOf('result="allowed"'));
  });

  it('a reset of the registry empties the series, as prom-client does; counting goes on', async () => {
    const { ours, theirs, observe } = pair();
    observe('allowed', 0.003);
    observe('denied', 0.003);
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    observe('denied', 0.0001);
    observe('allowed', 0.2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
