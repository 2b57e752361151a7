import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** Makes the process report an older Node before main.js loads. */
const pretend = (version: string): string =>
  `data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${version}" } });`;

describe('the Node.js version check', () => {
  it('stops an older Node at start with one line that names the version needed', () => {
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
    const r = spawnSync(process.execPath, ['--import', pretend('22.12.0'), main, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'kevents-apiserver: Node.js 22.19 or newer is needed (Node 24 LTS recommended); this is 22.12.0\n',
    );
    const ok = spawnSync(process.execPath, ['--import', pretend('22.19.0'), main, '--help'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('--storage');
  });
});
