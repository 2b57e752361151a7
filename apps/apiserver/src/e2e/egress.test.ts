import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { OidcIssuer } from '@kevents/authn/testing';
import { KonnectivityServer } from '@kevents/egress/testing';
import { ApiserverProcess } from '../testing/apiserver-process.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-egress-e2e-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

let issuer: OidcIssuer;
let konnectivity: KonnectivityServer;
let apiserver: ApiserverProcess;

beforeAll(async () => {
  issuer = await OidcIssuer.start({ alg: 'RS256' });
  const socket = join(dir, 'konnectivity.sock');
  konnectivity = await KonnectivityServer.start(socket);
  const authn = write(
    'authn.yaml',
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [
        {
          issuer: {
            url: issuer.url,
            audiences: ['kevents'],
            certificateAuthority: issuer.ca.cert,
            egressSelectorType: 'cluster',
          },
          claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
        },
      ],
      anonymous: { enabled: true, conditions: [{ path: '/healthz' }, { path: '/livez' }] },
    }),
  );
  const egress = write(
    'egress.yaml',
    stringify({
      apiVersion: 'apiserver.k8s.io/v1beta1',
      kind: 'EgressSelectorConfiguration',
      egressSelections: [
        { name: 'cluster', connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: socket } } } },
        { name: 'controlplane', connection: { proxyProtocol: 'Direct' } },
      ],
    }),
  );
  apiserver = await ApiserverProcess.start('memory', [
    `--authentication-config=${authn}`,
    `--egress-selector-config-file=${egress}`,
  ]);
});

afterAll(async () => {
  await apiserver?.stop();
  await konnectivity?.close();
  await issuer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('kevents-apiserver with --egress-selector-config-file', () => {
  it('reaches the JWT issuer only through the konnectivity server of the cluster selection', async () => {
    const token = await issuer.mint({ sub: 'alice', aud: 'kevents' });
    const headers = { authorization: `Bearer ${token}` };
    const end = Date.now() + 20_000;
    let status = 0;
    while (status !== 200) {
      if (Date.now() > end) throw new Error(`no 200 with the token (last ${status}): ${apiserver.log}`);
      status = (await fetch(`${apiserver.url}/apis/events.k8s.io/v1/events`, { headers })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(konnectivity.dials.filter((d) => d === `127.0.0.1:${issuer.port}`).length).toBeGreaterThanOrEqual(2);
    expect(apiserver.log).toContain(`egress: cluster via GRPC ${join(dir, 'konnectivity.sock')}; controlplane Direct`);
    const metrics = await (await fetch(`${apiserver.url}/metrics`, { headers })).text();
    expect(metrics).toMatch(/^apiserver_egress_dialer_dial_start_total\{protocol="grpc",transport="uds"\} [1-9]/m);
    expect(metrics).toMatch(
      /^konnectivity_network_proxy_client_stream_packets_total\{segment="from_client",packet_type="DIAL_REQ"\} [1-9]/m,
    );
  });
});
