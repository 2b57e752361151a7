import { RE2JS } from 're2js';

const cache = new Map<string, RE2JS>();
const CACHE_MAX = 512;

/**
 * Compiles a pattern with RE2 syntax and semantics (re2js, a port of RE2/J), caching the result.
 * Throws re2js' syntax error for constructs RE2 rejects (backreferences, lookaround).
 */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(pattern, re);
  }
  return re;
}

/** The message RE2 gives for a bad pattern, or undefined when the pattern is valid. */
export function regexError(pattern: string): string | undefined {
  try {
    compileRegex(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** CEL `matches`: true when the pattern matches any substring (unanchored), as in cel-go. */
export function re2Matches(s: string, pattern: string): boolean {
  return compileRegex(pattern).test(s);
}

/** Kubernetes regex library `find`: the first match, or "". */
export function re2Find(s: string, pattern: string): string {
  const m = compileRegex(pattern).matcher(s);
  return m.find() ? (m.group() ?? '') : '';
}

/** Kubernetes regex library `findAll(limit)`: all matches (limit < 0 means all). */
export function re2FindAll(s: string, pattern: string, limit = -1): string[] {
  const out: string[] = [];
  if (limit === 0) return out;
  const m = compileRegex(pattern).matcher(s);
  while (m.find()) {
    out.push(m.group() ?? '');
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}
