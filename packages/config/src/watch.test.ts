import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { TracingConfiguration } from '@kevents/api';
import { ConfigError, ConfigWatcher } from './index.js';

const head = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\n';

describe('ConfigWatcher', () => {
  it('reloads a valid change, keeps the running config on an invalid one, and counts both', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kevents-watch-')), 'tracing.yaml');
    writeFileSync(file, `${head}samplingRatePerMillion: 10\n`);
    const lines: string[] = [];
    const w = await ConfigWatcher.start<TracingConfiguration>(file, { intervalMs: 60_000, log: (l) => lines.push(l) });
    const events: string[] = [];
    w.on('reload', (o) => events.push(`reload ${o.config.samplingRatePerMillion}`));
    w.on('rejected', (o) => events.push(`rejected ${o.errors.map((e) => e.field).join(',')}`));
    try {
      expect(w.current.samplingRatePerMillion).toBe(10);
      expect(await w.check()).toBeUndefined();

      writeFileSync(file, `${head}samplingRatePerMillion: 20\n`);
      expect((await w.check())?.status).toBe('success');
      expect(w.current.samplingRatePerMillion).toBe(20);

      writeFileSync(file, `${head}samplingRatePerMillion: -1\n`);
      expect((await w.check())?.status).toBe('failure');
      expect(w.current.samplingRatePerMillion).toBe(20);

      expect(events).toEqual(['reload 20', 'rejected samplingRatePerMillion']);
      expect(w.counters).toEqual({ success: 1, failure: 1 });
      expect(lines[0]).toMatch(/^config reloaded: path=.* status=success$/);
      expect(lines[1]).toContain('keeping the running configuration');
      expect(lines[1]).toContain('samplingRatePerMillion: Invalid value: -1: sampling rate must be positive');
    } finally {
      w.close();
    }
  });

  it('refuses an invalid initial file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kevents-watch-')), 'tracing.yaml');
    writeFileSync(file, `${head}bogus: 1\n`);
    await expect(ConfigWatcher.start(file)).rejects.toBeInstanceOf(ConfigError);
  });
});
