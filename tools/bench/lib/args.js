import { fileURLToPath } from 'node:url';

/** The number given as `--<name>=N` on the command line, else `def`. */
export const numberArg = (name, def) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);

/** The text given as `--<name>=X` on the command line, else `def`. */
export const stringArg = (name, def) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;

/** The median: the middle value, or the mean of the two middle ones for an even count. */
export const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The built kevents-apiserver entry point (`npm run build` first). */
export const apiserverMain = fileURLToPath(new URL('../../../apps/apiserver/dist/main.js', import.meta.url));

/**
 * The arguments of the kevents server the create benchmarks load (memory.js, profile.js): plain
 * HTTP on `port`, quiet logs, a 10,000-change watch history, on Redis when `redisURL` is given.
 */
export const benchApiserverArgs = (port, redisURL, prefix = 'bench') => [
  apiserverMain,
  `--insecure-port=${port}`,
  '--secure-port=0',
  '--log-level=warn',
  '--watch-history=10000',
  ...(redisURL ? [`--storage=${redisURL}?prefix=${prefix}`] : []),
];
