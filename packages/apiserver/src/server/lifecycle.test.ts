import { describe, expect, it } from '@jest/globals';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ServerLifecycle } from './lifecycle.js';

const response = (): ServerResponse => new ServerResponse(new IncomingMessage(new Socket()));

describe('ServerLifecycle in-flight tracking', () => {
  it('counts each tracked response until it closes, in any order, once', () => {
    const lifecycle = new ServerLifecycle();
    const rs = [response(), response(), response(), response()];
    for (const r of rs) lifecycle.track(r);
    lifecycle.track(rs[0]!);
    expect(lifecycle.inFlight).toBe(4);
    rs[1]!.emit('close');
    expect(lifecycle.inFlight).toBe(3);
    rs[1]!.emit('close');
    expect(lifecycle.inFlight).toBe(3);
    rs[0]!.emit('close');
    rs[3]!.emit('close');
    expect(lifecycle.inFlight).toBe(1);
    lifecycle.stopAccepting();
    expect(rs[2]!.shouldKeepAlive).toBe(false);
    rs[2]!.emit('close');
    expect(lifecycle.inFlight).toBe(0);
  });

  it('turns keep-alive off on exactly the responses still in flight when it stops accepting', () => {
    const lifecycle = new ServerLifecycle();
    const rs = Array.from({ length: 6 }, response);
    for (const r of rs) {
      r.shouldKeepAlive = true;
      lifecycle.track(r);
    }
    rs[0]!.emit('close');
    rs[4]!.emit('close');
    lifecycle.stopAccepting();
    expect(rs.map((r) => r.shouldKeepAlive)).toEqual([true, false, false, false, true, false]);
    const late = response();
    late.shouldKeepAlive = true;
    lifecycle.track(late);
    expect(late.shouldKeepAlive).toBe(false);
  });

  it('resolves drained when the last response closes, or false at the timeout', async () => {
    const lifecycle = new ServerLifecycle();
    await expect(lifecycle.drained(10)).resolves.toBe(true);
    const a = response();
    const b = response();
    lifecycle.track(a);
    lifecycle.track(b);
    const drained = lifecycle.drained(5000);
    a.emit('close');
    b.emit('close');
    await expect(drained).resolves.toBe(true);
    const c = response();
    lifecycle.track(c);
    await expect(lifecycle.drained(10)).resolves.toBe(false);
    c.emit('close');
    expect(lifecycle.inFlight).toBe(0);
  });
});

describe('ServerLifecycle refusal', () => {
  it('answers 429 with kube-apiserver’s Retry-After of 5 s, or the one given', () => {
    const kube = new ServerLifecycle().refusal();
    expect([kube.code, kube.status.message, kube.headers['Retry-After']]).toEqual([
      429,
      'The apiserver is shutting down, please try again later.',
      '5',
    ]);
    const own = new ServerLifecycle({ retryAfterSeconds: 9 }).refusal();
    expect([own.headers['Retry-After'], own.status.details?.retryAfterSeconds]).toEqual(['9', 9]);
  });
});
