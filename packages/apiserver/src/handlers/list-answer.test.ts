import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { JSONListShape } from '../encoding/list-stream.js';
import { listBufferMaxChars, listTurnChars, sendJSONList } from './list-answer.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** Turns of the event loop, counted while `run` goes on. */
async function countingTurns<T>(run: (turn: () => number) => Promise<T>): Promise<T> {
  let turn = 0;
  let on = true;
  const tick = (): void => {
    turn++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return await run(() => turn);
  } finally {
    on = false;
  }
}

/** A list of `n` elements whose texts are `chars` long, noting the turn each is encoded in. */
function shapeOf(n: number, chars: number, turn: () => number, encodedIn: number[]): JSONListShape {
  const element = (i: number): string => JSON.stringify({ i, pad: 'x'.repeat(chars - 20 - String(i).length) });
  return {
    envelope: { kind: 'List', items: [] },
    arrayKey: 'items',
    length: n,
    items: (from, to) =>
      Array.from({ length: to - from }, (_, k) => {
        encodedIn[from + k] = turn();
        return element(from + k);
      }),
    values: (from, to) => Array.from({ length: to - from }, (_, k) => JSON.parse(element(from + k)) as unknown),
  };
}

async function answer(n: number, chars: number): Promise<{ body: string; chunked: boolean; turns: number[] }> {
  const encodedIn: number[] = [];
  const app = Fastify();
  apps.push(app);
  return countingTurns(async (turn) => {
    app.get('/', async (_req, reply) => sendJSONList(reply, shapeOf(n, chars, turn, encodedIn), false));
    const r = await app.inject({ method: 'GET', url: '/' });
    return { body: r.body, chunked: r.headers['transfer-encoding'] === 'chunked', turns: encodedIn };
  });
}

describe('sendJSONList', () => {
  it('encodes the items of a list sent in one write a turn of the event loop at a time past listTurnChars', async () => {
    const chars = Math.ceil(listTurnChars * 1.2);
    const n = 5;
    const { body, chunked, turns } = await answer(n, chars);
    expect(n * chars).toBeLessThan(listBufferMaxChars);
    expect(chunked).toBe(false);
    const parsed = JSON.parse(body) as { items: { i: number }[] };
    expect(parsed.items.map((x) => x.i)).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < n; i++) expect(turns[i]!).toBeGreaterThan(turns[i - 1]!);
  });

  it('keeps small items together in one turn, and streams a list past listBufferMaxChars a turn per large item', async () => {
    const small = await answer(40, 200);
    expect(new Set(small.turns).size).toBe(1);
    expect(small.chunked).toBe(false);
    const n = Math.ceil(listBufferMaxChars / (listTurnChars * 2)) + 3;
    const large = await answer(n, listTurnChars * 2);
    expect(large.chunked).toBe(true);
    expect((JSON.parse(large.body) as { items: unknown[] }).items).toHaveLength(n);
    for (let i = 1; i < n; i++) expect(large.turns[i]!).toBeGreaterThan(large.turns[i - 1]!);
  });
});
