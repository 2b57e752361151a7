import { randomBytes } from 'node:crypto';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxGeneratedNameLength = 58;

let pool = randomBytes(0);
let offset = 0;

/** A uniformly random index below `n` (n <= 256), from a pooled buffer of secure random bytes. */
function randomIndex(n: number): number {
  const limit = 256 - (256 % n);
  for (;;) {
    if (offset >= pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const b = pool[offset++]!;
    if (b < limit) return b % n;
  }
}

/** Makes a name from a `generateName` prefix. */
export type NameGenerator = (prefix: string) => string;

/** `names.SimpleNameGenerator`: the prefix (cut to 58) plus five random characters. */
export const generateName: NameGenerator = (prefix) => {
  let base = prefix.length > maxGeneratedNameLength ? prefix.slice(0, maxGeneratedNameLength) : prefix;
  for (let i = 0; i < 5; i++) base += nameAlphabet[randomIndex(nameAlphabet.length)];
  return base;
};
