import { describe, expect, it } from '@jest/globals';
import { alreadyExistsError, conflictError, notFoundError, StorageError, unavailableError } from './errors.js';

const key = { resource: 'events', namespace: 'ns', name: 'a' };
const frames = (e: Error): number => (e.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('StorageError', () => {
  it('captures no stack for answers (NotFound, AlreadyExists, Conflict), and keeps one for faults', () => {
    for (const e of [notFoundError(key), alreadyExistsError(key), conflictError(key)]) {
      expect(frames(e)).toBe(0);
      expect(e.stack).toBe(`StorageError: ${e.message}`);
    }
    expect(frames(unavailableError('redis unavailable: down'))).toBeGreaterThan(0);
    expect(frames(new StorageError('Internal', 'bug'))).toBeGreaterThan(0);
    expect(frames(new Error('after'))).toBeGreaterThan(0); // the limit is restored
  });
});
