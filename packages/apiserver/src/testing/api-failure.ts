import { expect } from '@jest/globals';
import { ApiError } from '../errors/api-error.js';

/**
 * The ApiError `fn` throws (a unit-test helper, not exported from the package): fails the test
 * when `fn` returns or throws anything else.
 */
export function apiFailure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('did not throw');
}

/** The ApiError a promise rejects with: fails the test when it resolves or rejects otherwise. */
export async function apiRejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('did not fail');
}
