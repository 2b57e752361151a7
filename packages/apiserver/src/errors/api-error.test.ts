import { describe, expect, it } from '@jest/globals';
import { internalError, notFound } from './api-error.js';

const frames = (e: Error): number => (e.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('ApiError', () => {
  it('is an answer: it captures no stack, and leaves the limit as it was', () => {
    expect(frames(notFound({ group: 'events.k8s.io', resource: 'events' }, 'x'))).toBe(0);
    expect(frames(internalError(new Error('boom')))).toBe(0);
    expect(frames(new Error('after'))).toBeGreaterThan(0);
  });
});
