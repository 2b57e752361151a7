import { StorageError, type StorageErrorCode } from '@kevents/storage';
import type { SqliteBackend } from './sqlite.js';

/** The {@link SqliteBackend} methods the writer thread runs. */
export type ThreadMethod =
  'write' | 'get' | 'bounds' | 'page' | 'changes' | 'compact' | 'rvBefore' | 'ping' | 'maintenance' | 'close';

/** A call to the writer thread. */
export interface ThreadCall {
  readonly id: number;
  readonly method: ThreadMethod & keyof SqliteBackend;
  readonly args: readonly unknown[];
}

/** An error as it crosses the thread boundary: a StorageError's code and message. */
export interface ThreadError {
  readonly code: StorageErrorCode;
  readonly message: string;
}

/** The writer thread's answer to one call. */
export type ThreadReply =
  { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: ThreadError };

export function encodeThreadError(err: unknown): ThreadError {
  if (err instanceof StorageError) return { code: err.code, message: err.message };
  return { code: 'Internal', message: `sqlite: ${(err as Error)?.message ?? String(err)}` };
}

export const decodeThreadError = (e: ThreadError): StorageError => new StorageError(e.code, e.message);
