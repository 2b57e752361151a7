import { fileURLToPath } from 'node:url';

/** The number given as `--<name>=N` on the command line, else `def`. */
export const numberArg = (name, def) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);

/** The median (upper middle for an even count) of some numbers. */
export const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** The built kevents-apiserver entry point (`npm run build` first). */
export const apiserverMain = fileURLToPath(new URL('../../../apps/apiserver/dist/main.js', import.meta.url));
