import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { callAfter, maxTimerDelayMs } from './deadline.js';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('callAfter', () => {
  it('waits a delay longer than setTimeout keeps, in steps', () => {
    const fn = jest.fn();
    callAfter(2_147_484 * 1000, fn);
    jest.advanceTimersByTime(maxTimerDelayMs);
    expect(fn).not.toHaveBeenCalled();
    jest.advanceTimersByTime(2_147_484 * 1000 - maxTimerDelayMs - 1);
    expect(fn).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('fires on the next turn for zero or a negative delay, and not once cancelled', () => {
    const now = jest.fn();
    const never = jest.fn();
    callAfter(-1000, now);
    callAfter(5, never)();
    expect(now).not.toHaveBeenCalled();
    jest.advanceTimersByTime(10);
    expect(now).toHaveBeenCalledTimes(1);
    expect(never).not.toHaveBeenCalled();
  });
});
