/**
 * Message builders shared by Kubernetes' string validators
 * (k8s.io/apimachinery/pkg/util/validation and pkg/api/validate/content).
 */

/** Go's `len(s)`: the UTF-8 byte length, which is what every Kubernetes length limit counts. */
export const goLen = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `validation.MaxLenError`: `must be no more than N characters` (util/validation). */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;

/** `content.MaxLenError`: `must be no more than N bytes` (label keys and values, Kubernetes 1.35+). */
export const maxLenBytesError = (n: number): string => `must be no more than ${n} bytes`;

/** `validation.EmptyError` */
export const emptyError = (): string => 'must be non-empty';

/** `validation.RegexError`: the message, the examples, then the regex text. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}
