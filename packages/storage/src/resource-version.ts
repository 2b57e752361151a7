import { invalidResourceVersionError } from './errors.js';

/** Parses a decimal resourceVersion (`'0'` included). Throws InvalidObject for anything else. */
export function parseResourceVersion(value: string): number {
  if (!/^[0-9]{1,16}$/.test(value)) throw invalidResourceVersionError(value);
  const rv = Number(value);
  if (!Number.isSafeInteger(rv)) throw invalidResourceVersionError(value);
  return rv;
}

/** Whether a resourceVersion option means "no particular version": undefined, `''` or `'0'`. */
export const isUnsetResourceVersion = (value: string | undefined): value is undefined | '' | '0' =>
  value === undefined || value === '' || value === '0';
