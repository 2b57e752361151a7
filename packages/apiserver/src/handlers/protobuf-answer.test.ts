import { describe, expect, it } from '@jest/globals';
import { decodeProtobuf } from '@kevents/api';
import type { Lease } from '@kevents/api';
import { leasesResource } from '../resources/leases/resource.js';
import { protobufList, protobufListInTurns, protobufTurnBytes } from './protobuf-answer.js';

const view = leasesResource().views[0]!;
const lease = (i: number, holder = `holder-${i}`): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: `l${i}`, namespace: 'default', resourceVersion: String(i + 1) },
  spec: { holderIdentity: holder },
});
const meta = { resourceVersion: '9' };
const asObject = { as: 'object' } as const;

describe('protobufListInTurns', () => {
  it('writes the bytes protobufList writes, for lists of any length and both representations', async () => {
    for (const n of [0, 1, 2, 255, 256, 257, 600]) {
      const items = Array.from({ length: n }, (_, i) => lease(i));
      for (const rep of [asObject, { as: 'PartialObjectMetadataList', version: 'v1' } as const]) {
        const parts = await protobufListInTurns(view, items, meta, rep);
        expect(Buffer.concat(parts).equals(protobufList(view, items, meta, rep))).toBe(true);
      }
    }
  });

  it('lets the event loop go between large items, not only every 256 items', async () => {
    const big = 'h'.repeat(Math.ceil(protobufTurnBytes / 2));
    const items = Array.from({ length: 6 }, (_, i) => lease(i, `${big}${i}`));
    const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    let others = 0;
    const other = (async () => {
      for (let i = 0; i < 20; i++) {
        await tick();
        others++;
      }
    })();
    const bytes = Buffer.concat(await protobufListInTurns(view, items, meta, asObject));
    const seenDuring = others;
    await other;
    // Six items of half the turn's bytes: three turns, so other work ran in between.
    expect(seenDuring).toBeGreaterThanOrEqual(2);
    const list = decodeProtobuf(bytes, 'coordination/v1.LeaseList') as { items: Lease[] };
    expect(list.items.map((l) => l.spec?.holderIdentity?.slice(-1))).toEqual(['0', '1', '2', '3', '4', '5']);
  });
});
