import { describe, expect, it } from '@jest/globals';
import { Counter, Registry } from 'prom-client';
import { PlainCounter } from './plain-counter.js';

const o = {
  name: 'apiserver_authorization_decisions_total',
  help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
};

describe('PlainCounter', () => {
  it('writes exactly what a prom-client counter writes for the same counts, in order of first count', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const m = new PlainCounter(ours, o);
    const c = new Counter({ ...o, labelNames: ['type', 'name', 'decision'], registers: [theirs] });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    const counts = [
      { type: 'Webhook', name: 'policy', decision: 'denied' },
      { type: 'AlwaysAllow', name: 'rest', decision: 'allowed' },
      { type: 'Webhook', name: 'policy', decision: 'allowed' },
      { type: 'Webhook', name: 'policy', decision: 'denied' },
      { type: 'Webhook', name: 'po"l\\icy', decision: 'denied' },
    ];
    for (const labels of counts) {
      m.inc(m.series(labels));
      c.labels(labels).inc();
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'apiserver_authorization_decisions_total{type="Webhook",name="policy",decision="denied"} 2\n',
    );
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('a registry reset empties it, as prom-client does', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const m = new PlainCounter(ours, o);
    const c = new Counter({ ...o, labelNames: ['type', 'name', 'decision'], registers: [theirs] });
    const a = { type: 'Webhook', name: 'a', decision: 'allowed' };
    const d = { type: 'Webhook', name: 'a', decision: 'denied' };
    const sa = m.series(a);
    const sd = m.series(d);
    expect(m.series({ ...a })).toBe(sa);
    m.inc(sa);
    c.inc(a);
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    m.inc(sd);
    c.inc(d);
    m.inc(sa);
    c.inc(a);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
