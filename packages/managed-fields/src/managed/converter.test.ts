import { describe, expect, test } from '@jest/globals';
import { makePath, pathString } from '../fieldpath/path.js';
import { scalarType, structType } from '../schema/builders.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { ConflictsError } from './conflicts.js';
import { MissingVersionError, versionConverter } from './converter.js';
import type { ServedVersion } from './converter.js';
import { Updater } from './updater.js';
import type { ManagedFields } from './versioned-set.js';

// Two versions of one kind whose field is renamed (as core/v1 Event `message` and events.k8s.io/v1 `note`),
// after structured-merge-diff's TestMultipleAppliersFieldRenameConversions.
const str = scalarType('string');
const v1 = structType({ apiVersion: str, message: str, reason: str });
const v2 = structType({ apiVersion: str, note: str, reason: str });
type Hub = { text?: string; reason?: string };
const obj = (v: JsonValue): Record<string, JsonValue> => (isJsonObject(v) ? v : {});
const served = new Map<string, ServedVersion>([
  [
    'v1',
    {
      type: v1,
      toHub: (o) => ({ text: obj(o)['message'], reason: obj(o)['reason'] }),
      fromHub: (h) => clean({ apiVersion: 'v1', message: (h as Hub).text, reason: (h as Hub).reason }),
    },
  ],
  [
    'v2',
    {
      type: v2,
      toHub: (o) => ({ text: obj(o)['note'], reason: obj(o)['reason'] }),
      fromHub: (h) => clean({ apiVersion: 'v2', note: (h as Hub).text, reason: (h as Hub).reason }),
    },
  ],
]);
function clean(o: Record<string, JsonValue | undefined>): JsonValue {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonValue;
}

describe('versionConverter', () => {
  const converter = versionConverter(served);

  test('converts through the hub, returns objects already at the version, refuses unknown versions', () => {
    expect(converter.convert({ value: { apiVersion: 'v1', message: 'm' }, type: v1 }, 'v2').value).toEqual({
      apiVersion: 'v2',
      note: 'm',
    });
    const same = { value: { apiVersion: 'v1', message: 'm' }, type: v1 };
    expect(converter.convert(same, 'v1').value).toBe(same.value);
    expect(() => converter.convert(same, 'v3')).toThrow(MissingVersionError);
  });

  test('a manager at v1 sees a v2 change of the renamed field as its own field changing', () => {
    const updater = new Updater({ converter });
    let managers: ManagedFields = new Map();
    const live1 = { value: { apiVersion: 'v1', message: 'a', reason: 'r' }, type: v1 };
    managers = updater.apply({ value: null, type: v1 }, live1, 'v1', managers, 'one', false).managers;
    const liveAtV2 = converter.convert(live1, 'v2');
    let conflicts: string[] = [];
    try {
      updater.apply(liveAtV2, { value: { apiVersion: 'v2', note: 'b' }, type: v2 }, 'v2', managers, 'two', false);
    } catch (e) {
      conflicts = (e as ConflictsError).conflicts.map((c) => `${c.manager} ${pathString(c.path)}`);
    }
    expect(conflicts).toEqual(['one .message']);
    const out = updater.apply(
      liveAtV2,
      { value: { apiVersion: 'v2', note: 'b' }, type: v2 },
      'v2',
      managers,
      'two',
      true,
    );
    expect(out.object?.value).toEqual({ apiVersion: 'v2', note: 'b', reason: 'r' });
    expect(out.managers.get('one')!.set.paths().map(pathString).sort()).toEqual(['.apiVersion', '.reason']);
    expect(out.managers.get('two')!.set.has(makePath('note'))).toBe(true);
  });
});
