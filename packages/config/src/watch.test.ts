import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    w.on('rejected', (o) => events.push(`rejected ${o.fieldErrors?.map((e) => e.field).join(',')}`));
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

  it('applies through the apply hook: refused content waits for a change unless it asks for a retry', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kevents-watch-')), 'tracing.yaml');
    writeFileSync(file, `${head}samplingRatePerMillion: 10\n`);
    const seen: number[] = [];
    let answer: 'applied' | 'unchanged' | { errors: string[]; retry?: boolean } | Error = 'applied';
    const w = await ConfigWatcher.load<TracingConfiguration>(file, {
      intervalMs: 60_000,
      apply: (config) => {
        seen.push(config.samplingRatePerMillion!);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    const initialHash = w.hash;
    try {
      const write = (n: number): void => writeFileSync(file, `${head}samplingRatePerMillion: ${n}\n`);
      // Refused for good: not applied again until the content changes.
      answer = { errors: ['no'] };
      write(20);
      expect(await w.check()).toMatchObject({ status: 'failure', errors: ['no'] });
      expect(await w.check()).toBeUndefined();
      // Refused with a retry: applied again on the next check, then accepted.
      answer = { errors: ['not yet'], retry: true };
      write(30);
      expect(await w.check()).toMatchObject({ status: 'failure', errors: ['not yet'] });
      answer = 'applied';
      expect(await w.check()).toMatchObject({ status: 'success', config: { samplingRatePerMillion: 30 } });
      expect(w.current.samplingRatePerMillion).toBe(30);
      expect(w.hash).not.toBe(initialHash);
      // A thrown error is a failure; "unchanged" is not counted and keeps the running config.
      answer = new Error('boom');
      write(40);
      expect(await w.check()).toMatchObject({ status: 'failure', errors: ['boom'] });
      answer = 'unchanged';
      write(50);
      expect(await w.check()).toBeUndefined();
      expect(w.current.samplingRatePerMillion).toBe(30);
      expect(seen).toEqual([20, 30, 30, 40, 50]);
      expect(w.counters).toEqual({ success: 1, failure: 3 });
    } finally {
      w.close();
    }
  });

  it('counts an unreadable file on every check and runs one check at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-watch-'));
    const file = join(dir, 'tracing.yaml');
    writeFileSync(file, `${head}samplingRatePerMillion: 10\n`);
    let release: () => void = () => undefined;
    let calls = 0;
    const w = await ConfigWatcher.load<TracingConfiguration>(file, {
      apply: () => {
        calls++;
        return new Promise((resolve) => (release = () => resolve('applied')));
      },
    });
    writeFileSync(file, `${head}samplingRatePerMillion: 20\n`);
    const first = w.check();
    const second = w.check();
    expect(second).toBe(first);
    // The check reads the file before it applies it: release only once apply holds it (a fixed
    // 20 ms wait released nothing on a loaded machine, and the check never ended).
    while (calls === 0) await new Promise((r) => setTimeout(r, 5));
    release();
    expect((await first)?.status).toBe('success');
    expect(calls).toBe(1);
    rmSync(file);
    expect(await w.check()).toMatchObject({ status: 'failure', errors: [expect.stringMatching(/^open .*ENOENT/)] });
    expect(await w.check()).toMatchObject({ status: 'failure' });
    expect(w.counters).toEqual({ success: 1, failure: 2 });
    expect(w.current.samplingRatePerMillion).toBe(20);
  });

  it('refuses an invalid initial file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kevents-watch-')), 'tracing.yaml');
    writeFileSync(file, `${head}bogus: 1\n`);
    await expect(ConfigWatcher.start(file)).rejects.toBeInstanceOf(ConfigError);
  });
});
