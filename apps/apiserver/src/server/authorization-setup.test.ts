import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@kevents/api/testing';
import { ServerMetrics } from '@kevents/apiserver';
import { startAuthorization } from './authorization.js';
import { apiserverOptions } from '../cli/flags.js';

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kevents-authz-setup-'));
const silent = { info: () => undefined, error: () => undefined };
const run = async (args: string[]) => {
  const port = await freePort();
  return new Promise<{ code: number; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [main, '--secure-port=0', `--insecure-port=${port}`, ...args],
      (e, _o, stderr) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stderr }),
    );
    setTimeout(() => child.kill('SIGTERM'), 40_000).unref();
  });
};
const attrs = (groups: string[]) => ({
  user: { username: 'u', groups },
  verb: 'list',
  isResourceRequest: true,
  path: '/apis/events.k8s.io/v1/events',
  apiGroup: 'events.k8s.io',
  apiVersion: 'v1',
  resource: 'events',
  subresource: '',
  namespace: '',
  name: '',
});

(process.env['KEVENTS_MUTATION_RUN'] ? describe.skip : describe)('authorization flags of kevents-apiserver', () => {
  it('refuses --authorization-mode together with --authorization-config', async () => {
    const file = join(dir, 'allow.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers: [{type: AlwaysAllow, name: allow}]\n',
    );
    const r = await run([`--authorization-config=${file}`, '--authorization-mode=AlwaysDeny']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'kevents-apiserver: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined\n',
    );
  }, 60_000);

  it('refuses to start with an authorizer type it does not build, naming the supported ones', async () => {
    const file = join(dir, 'rbac.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers: [{type: RBAC, name: rbac}]\n',
    );
    const r = await run([`--authorization-config=${file}`]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'authorizers[0].type: Unsupported value: "RBAC": supported values: "AlwaysAllow", "AlwaysDeny", "Webhook"',
    );
  }, 60_000);
});

describe('startAuthorization', () => {
  it('uses --authorization-mode without a file, system:masters first', async () => {
    const metrics = new ServerMetrics();
    const s = await startAuthorization({
      options: apiserverOptions({ authorizationMode: ['AlwaysDeny'] }),
      metrics,
      log: silent,
    });
    expect(await s.authorizer.authorize(attrs(['system:masters']))).toEqual({ decision: 'Allow', reason: '' });
    expect(await s.authorizer.authorize(attrs(['dev']))).toEqual({
      decision: 'Deny',
      reason: 'Everything is forbidden.',
    });
    expect(await metrics.text()).toContain(
      'apiserver_authorization_decisions_total{type="AlwaysDeny",name="alwaysdeny",decision="denied"} 1',
    );
    const allow = await startAuthorization({ options: apiserverOptions(), metrics: new ServerMetrics(), log: silent });
    expect(allow.authorizer.name).toBe('AlwaysAllow');
  });
});
