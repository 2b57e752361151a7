import { isGoPrint } from '../value/go-format.js';

/** Text of printable ASCII characters only (U+0020–U+007E, each printable for Go). */
const printableASCII = /^[\x20-\x7e]*$/;

/** `validation.FieldManagerMaxLength`. */
export const fieldManagerMaxLength = 128;

/**
 * The manager a request without `fieldManager` is recorded under (`prefixFromUserAgent`): the
 * User-Agent up to its first `/`, without unprintable characters, cut at 128 UTF-8 bytes
 * (`kubectl-edit/v1.35.0 (linux/amd64) kubernetes/…` → `kubectl-edit`).
 */
export function prefixFromUserAgent(userAgent: string): string {
  const slash = userAgent.indexOf('/');
  const head = slash < 0 ? userAgent : userAgent.slice(0, slash);
  // Printable ASCII (what clients send) is kept as it is, one byte a character.
  if (head.length <= fieldManagerMaxLength && printableASCII.test(head)) return head;
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!isGoPrint(ch)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** `managerOrUserAgent`: the `fieldManager` option when set, else the User-Agent's prefix. */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : prefixFromUserAgent(userAgent ?? '');
}
