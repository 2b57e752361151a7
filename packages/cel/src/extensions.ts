import type { Environment } from '@marcbachmann/cel-js';
import { formatString } from './format.js';
import { re2Find, re2FindAll } from './regex.js';

/** The receiver of `strings.quote(...)`. */
class StringsNamespace {}
/** The receiver of `sets.contains(...)` and friends. */
class SetsNamespace {}

const fail = (message: string): never => {
  throw new Error(message);
};

/** The ext.Strings (v2) functions cel-js lacks: replace, charAt, reverse, format, strings.quote. */
export function registerStrings(env: Environment): void {
  env
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => s.split(a).join(b))
    .registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => {
      if (n < 0n) return s.split(a).join(b);
      const parts = s.split(a);
      const limit = Number(n);
      if (parts.length - 1 <= limit) return parts.join(b);
      return parts.slice(0, limit + 1).join(b) + a + parts.slice(limit + 1).join(a);
    })
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) fail(`index out of range: ${i}`);
      return chars[Number(i)] ?? '';
    })
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))
    .registerFunction('string.format(list): string', (s: string, args: unknown[]) => formatString(s, args))
    .registerType('kevents.StringsNamespace', StringsNamespace)
    .registerConstant('strings', 'kevents.StringsNamespace', new StringsNamespace())
    .registerFunction('kevents.StringsNamespace.quote(string): string', (_ns: unknown, s: string) => JSON.stringify(s));
}

/** Kubernetes' regex library: `find` and `findAll` with RE2 semantics. */
export function registerRegex(env: Environment): void {
  env
    .registerFunction('string.find(string): string', (s: string, p: string) => re2Find(s, p))
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => re2FindAll(s, p))
    .registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) =>
      re2FindAll(s, p, Number(n)),
    );
}

type Comparable = bigint | number | string;
const cmp = (a: Comparable, b: Comparable): number => (a < b ? -1 : a > b ? 1 : 0);

/** Kubernetes' lists library: isSorted, sum, min, max, indexOf, lastIndexOf. */
export function registerLists(env: Environment): void {
  for (const t of ['int', 'double', 'string']) {
    env
      .registerFunction(`list<${t}>.isSorted(): bool`, (l: Comparable[]) =>
        l.every((x, i) => i === 0 || cmp(l[i - 1]!, x) <= 0),
      )
      .registerFunction(`list<${t}>.min(): ${t}`, (l: Comparable[]) =>
        l.length ? l.reduce((a, b) => (cmp(b, a) < 0 ? b : a)) : fail('min called on empty list'),
      )
      .registerFunction(`list<${t}>.max(): ${t}`, (l: Comparable[]) =>
        l.length ? l.reduce((a, b) => (cmp(b, a) > 0 ? b : a)) : fail('max called on empty list'),
      )
      .registerFunction(`list<${t}>.indexOf(${t}): int`, (l: Comparable[], x: Comparable) => BigInt(l.indexOf(x)))
      .registerFunction(`list<${t}>.lastIndexOf(${t}): int`, (l: Comparable[], x: Comparable) =>
        BigInt(l.lastIndexOf(x)),
      );
  }
  env
    .registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n))
    .registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
}

/** ext.Sets: `sets.contains`, `sets.equivalent`, `sets.intersects` (equality by CEL value). */
export function registerSets(env: Environment): void {
  const key = (v: unknown): string =>
    typeof v === 'bigint' ? `i:${v}` : typeof v === 'number' ? `i:${v}` : `${typeof v}:${JSON.stringify(v)}`;
  const toSet = (l: unknown[]): Set<string> => new Set(l.map(key));
  env
    .registerType('kevents.SetsNamespace', SetsNamespace)
    .registerConstant('sets', 'kevents.SetsNamespace', new SetsNamespace())
    .registerFunction('kevents.SetsNamespace.contains(list, list): bool', (_n: unknown, a: unknown[], b: unknown[]) => {
      const s = toSet(a);
      return b.every((x) => s.has(key(x)));
    })
    .registerFunction(
      'kevents.SetsNamespace.equivalent(list, list): bool',
      (_n: unknown, a: unknown[], b: unknown[]) => {
        const sa = toSet(a);
        const sb = toSet(b);
        return sa.size === sb.size && [...sa].every((x) => sb.has(x));
      },
    )
    .registerFunction(
      'kevents.SetsNamespace.intersects(list, list): bool',
      (_n: unknown, a: unknown[], b: unknown[]) => {
        const s = toSet(a);
        return b.some((x) => s.has(key(x)));
      },
    );
}
