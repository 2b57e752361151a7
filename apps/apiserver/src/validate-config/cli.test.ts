import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { freePort, waitFor } from '@kevents/api/testing';
import { OidcIssuer } from '@kevents/authn/testing';
import { validateConfigUsage } from './flags.js';
import { runValidateConfig } from './run.js';

const cli = resolve('apps/apiserver/dist/validate-config/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'kevents-validate-'));
const good = join(dir, 'tracing.yaml');
writeFileSync(
  good,
  'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: localhost:4317\n',
);
const bad = join(dir, 'authz.yaml');
writeFileSync(
  bad,
  'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: 1m\n    subjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n    connectionInfo:\n      type: InClusterConfig\n',
);

function run(...args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npm run build, or npm test which builds)`);
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
}

describe('validate-config as a process', () => {
  it('prints FILE: valid and exits 0 when every file is valid', () => {
    const r = run(good);
    expect(r.stdout).toBe(`${good}: valid\n`);
    expect(r.status).toBe(0);
  });

  it('prints every error and exits 1', () => {
    const r = run(good, bad);
    expect(r.stdout).toBe(
      `${good}: valid\n${bad}: authorizers[0].webhook.timeout: Invalid value: "1m0s": must be > 0s and <= 30s\n`,
    );
    expect(r.status).toBe(1);
  });

  it('prints JSON records with -o json', () => {
    const r = run('-o', 'json', bad, join(dir, 'missing.yaml'));
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        file: bad,
        field: 'authorizers[0].webhook.timeout',
        type: 'FieldValueInvalid',
        value: '1m0s',
        detail: 'must be > 0s and <= 30s',
      },
      {
        file: join(dir, 'missing.yaml'),
        field: '',
        type: 'FieldValueInvalid',
        value: '',
        detail: `open ${join(dir, 'missing.yaml')}: no such file or directory`,
      },
    ]);
  });

  it('exits 2 on a usage error', () => {
    expect(run().status).toBe(2);
    expect(run('-o', 'yaml', good).status).toBe(2);
  });
});

/** Runs the command in-process: its exit code and what it wrote. */
async function call(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runValidateConfig(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('runValidateConfig', () => {
  it('reads -o json, -ojson, -o=json and --output json as one flag', async () => {
    for (const flag of [['-o', 'json'], ['-ojson'], ['-o=json'], ['--output', 'json'], ['--output=json']]) {
      const r = await call(...flag, bad);
      expect({ flag, code: r.code, fields: (JSON.parse(r.stdout) as { field: string }[]).map((e) => e.field) }).toEqual(
        {
          flag,
          code: 1,
          fields: ['authorizers[0].webhook.timeout'],
        },
      );
    }
  });

  it('prints its flags with --help or -h and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await call(flag, good);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain('  kevents-apiserver validate-config [flags] FILE...\n');
      expect(r.stdout).toMatch(/\n {2}-o, --output=string +Output format: .* \(default "text"\)\n/);
      expect(r.stdout).toMatch(/\n {2}--group-domain=string +.* \(default "k8s.io"\)\n/);
    }
  });

  it('words usage errors as pflag and cobra do, and exits 2', async () => {
    const hint = "Run 'kevents-apiserver validate-config --help' for usage.\n";
    expect(await call('--nope', good)).toEqual({ code: 2, stdout: '', stderr: `Error: unknown flag: --nope\n${hint}` });
    expect(await call('-x', good)).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: unknown shorthand flag: 'x' in -x\n${hint}`,
    });
    expect(await call(good, '-o')).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: flag needs an argument: 'o' in -o\n${hint}`,
    });
    expect(await call('-o', 'yaml', good)).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: invalid argument "yaml" for "-o, --output" flag: must be text or json\n${hint}`,
    });
    expect(await call()).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: requires at least 1 arg(s), only received 0\n${hint}`,
    });
  });

  it('takes the group domain from the caller', async () => {
    const f = join(dir, 'custom.yaml');
    writeFileSync(f, 'apiVersion: apiserver.config.example.com/v1beta1\nkind: TracingConfiguration\n');
    const out: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s) };
    expect(await runValidateConfig([f], io, { groupDomain: 'example.com' })).toBe(0);
    expect(await runValidateConfig([f], io)).toBe(1);
    expect(out[1]).toContain('apiVersion: Unsupported value: "apiserver.config.example.com/v1beta1"');
    // --group-domain wins over the caller's.
    expect((await call('--group-domain=example.com', f)).code).toBe(0);
    expect(await runValidateConfig(['--group-domain', 'k8s.io', f], io, { groupDomain: 'example.com' })).toBe(1);
  });
});

describe('kevents-apiserver with config files', () => {
  const main = resolve('apps/apiserver/dist/main.js');

  it('dispatches `validate-config` to the same command', () => {
    const help = spawnSync(process.execPath, [main, 'validate-config', '--help'], { encoding: 'utf8' });
    expect({ status: help.status, stdout: help.stdout }).toEqual({ status: 0, stdout: validateConfigUsage() });
    const r = spawnSync(process.execPath, [main, 'validate-config', good, bad], { encoding: 'utf8' });
    expect(r.stdout).toBe(
      `${good}: valid\n${bad}: authorizers[0].webhook.timeout: Invalid value: "1m0s": must be > 0s and <= 30s\n`,
    );
    expect(r.status).toBe(1);
  });

  it('refuses to start on an invalid config file, printing its errors the same way', () => {
    const r = spawnSync(
      process.execPath,
      [main, '--insecure-port=0', '--secure-port=0', `--authorization-config=${bad}`],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `${bad}: authorizers[0].webhook.timeout: Invalid value: "1m0s": must be > 0s and <= 30s\nkevents-apiserver: refusing to start with an invalid configuration file\n`,
    );
  });

  it('refuses a file of the wrong kind for its flag', () => {
    const r = spawnSync(
      process.execPath,
      [main, '--secure-port=0', '--insecure-port=0', `--authentication-config=${good}`],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('TracingConfiguration');
  });
});

describe('automatic reload of --authentication-config', () => {
  it('keeps the running config on an invalid file, takes a valid one, and counts both', async () => {
    const { spawn } = await import('node:child_process');
    const issuer = await OidcIssuer.start();
    const main = resolve('apps/apiserver/dist/main.js');
    const file = join(dir, 'authn.yaml');
    const ca = issuer.ca.cert
      .trim()
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n');
    const valid = (aud: string) =>
      `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: ${issuer.url}\n    audiences: [${aud}]\n    certificateAuthority: |\n${ca}\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`;
    writeFileSync(file, valid('kevents'));
    const port = await freePort();
    const proc = spawn(
      process.execPath,
      [main, `--insecure-port=${port}`, '--secure-port=0', `--authentication-config=${file}`, '--log-format=text'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = (pred: () => boolean): Promise<void> =>
      waitFor(pred, 15_000, () => `timed out; output:\n${out}`, { intervalMs: 100 });
    const token = await issuer.mint({ sub: 'tester', aud: ['kevents', 'other'] });
    const metrics = async () =>
      (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    try {
      await until(() => out.includes('try: kubectl'));
      writeFileSync(file, valid('kevents').replace(issuer.url, issuer.url.replace('https:', 'http:')));
      await until(() => out.includes('kept the running authentication config'));
      expect(await metrics()).toContain(
        'apiserver_authentication_config_controller_automatic_reloads_total{status="failure"} 1',
      );
      writeFileSync(file, valid('other'));
      await until(() => out.includes('reloaded authentication config'));
      expect(await metrics()).toContain(
        'apiserver_authentication_config_controller_automatic_reloads_total{status="success"} 1',
      );
    } finally {
      proc.kill('SIGTERM');
      await issuer.stop();
    }
  });
});
