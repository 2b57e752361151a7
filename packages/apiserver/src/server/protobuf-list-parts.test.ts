import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeProtobuf } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
import { leasesResource } from '../resources/leases/resource.js';
import { protobufWholeBytes } from '../encoding/respond.js';
import { buildApiServer } from './build-server.js';
import type { ApiServer } from './build-server.js';

const leases = '/apis/coordination.k8s.io/v1/namespaces/ns/leases';
let server: ApiServer;
beforeAll(async () => {
  server = buildApiServer({ storage: new MemoryStorage(), resources: [leasesResource()] });
  for (let i = 0; i < 6; i++) {
    const r = await server.app.inject({
      method: 'POST',
      url: leases,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ metadata: { name: `l${i}` }, spec: { holderIdentity: `${i}`.repeat(600_000) } }),
    });
    expect(r.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await server.watches.closeAll();
  await server.app.close();
});

describe('a protobuf list past protobufWholeBytes', () => {
  it('is sent a piece per turn, with the bytes and Content-Length of the list encoded whole', async () => {
    const json = await server.app.inject({ method: 'GET', url: leases });
    const whole = encodeProtobuf(json.json(), 'coordination/v1.LeaseList');
    expect(whole.length).toBeGreaterThan(3 * protobufWholeBytes);
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const r = await server.app.inject({
      method: 'GET',
      url: leases,
      headers: { accept: 'application/vnd.kubernetes.protobuf' },
    });
    counting = false;
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(r.headers['content-length']).toBe(String(whole.length));
    expect(r.rawPayload.equals(whole)).toBe(true);
    // Six items encoded in turns, then head, items and tail written in turns of their own.
    expect(turns).toBeGreaterThanOrEqual(12);
  });
});
