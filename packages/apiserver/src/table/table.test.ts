import { describe, expect, it } from '@jest/globals';
import type { RestScope } from '../scope/rest-scope.js';
import { humanDuration } from './human-duration.js';
import { age, defaultTableConvertor, nameColumn, parseIncludeObject, toTable } from './table.js';
import { widgetView } from '../testing/widget-resource.js';
import type { Widget as W } from '../testing/widget-resource.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (duration.HumanDuration)', () => {
  it('matches apimachinery’s table', () => {
    const cases: [number, string][] = [
      [-2 * s, '<invalid>'],
      [-1999, '0s'],
      [-1 * s, '0s'],
      [-1, '0s'],
      [0, '0s'],
      [999, '0s'],
      [1 * s, '1s'],
      [119 * s, '119s'],
      [2 * m, '2m'],
      [2 * m + 1 * s, '2m1s'],
      [9 * m + 59 * s, '9m59s'],
      [10 * m, '10m'],
      [10 * m + 59 * s, '10m'],
      [179 * m, '179m'],
      [3 * h, '3h'],
      [3 * h + 1 * m, '3h1m'],
      [7 * h + 59 * m, '7h59m'],
      [8 * h, '8h'],
      [47 * h + 59 * m, '47h'],
      [48 * h, '2d'],
      [48 * h + 1 * h, '2d1h'],
      [7 * d + 23 * h, '7d23h'],
      [8 * d, '8d'],
      [8 * d + 23 * h, '8d'],
      [2 * 365 * d - 1, '729d'],
      [2 * 365 * d, '2y'],
      [2 * 365 * d + 10 * d, '2y10d'],
      [8 * 365 * d - 1, '7y364d'],
      [8 * 365 * d, '8y'],
      [20 * 365 * d + 100 * d, '20y'],
    ];
    for (const [ms, want] of cases) expect([ms, humanDuration(ms)]).toEqual([ms, want]);
  });
});

const view = widgetView();
const scope = { view, strategy: { table: defaultTableConvertor } } as unknown as RestScope<W>;
const w: W = { metadata: { name: 'a', namespace: 'ns', creationTimestamp: '2020-01-01T00:00:00Z' }, spec: {} };

describe('table', () => {
  it('parseIncludeObject', () => {
    expect(parseIncludeObject(undefined)).toBe('Metadata');
    expect(parseIncludeObject('')).toBe('Metadata');
    expect(parseIncludeObject('Metadata')).toBe('Metadata');
    expect(parseIncludeObject('None')).toBe('None');
    expect(parseIncludeObject('Object')).toBe('Object');
    expect(() => parseIncludeObject('object')).toThrow(
      'Unable to convert to Table as requested: includeObject: Unsupported value: "object": supported values: "Metadata", "None", "Object"',
    );
  });

  it('age', () => {
    const now = Date.parse('2020-01-01T00:05:00Z');
    expect(age('2020-01-01T00:00:00Z', now)).toBe('5m');
    expect(age(undefined, now)).toBe('<unknown>');
    expect(age(null, now)).toBe('<unknown>');
    expect(age('', now)).toBe('<unknown>');
    expect(age('garbage', now)).toBe('<unknown>');
  });

  it('the default convertor and the Name column', () => {
    expect(nameColumn).toEqual({
      name: 'Name',
      type: 'string',
      format: 'name',
      description: expect.stringContaining('Name must be unique within a namespace'),
      priority: 0,
    });
    expect(defaultTableConvertor.columns.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Created At', 'date', '', 0],
    ]);
    expect(defaultTableConvertor.columns[1]!.description).toContain('CreationTimestamp');
    expect(defaultTableConvertor.cells(w, 0)).toEqual(['a', '2020-01-01T00:00:00Z']);
    expect(defaultTableConvertor.cells({ metadata: {} }, 0)).toEqual(['', '']);
  });

  it('toTable with each includeObject', () => {
    const meta = { resourceVersion: '5' };
    const t = toTable(scope, [w], meta, { version: 'v1', include: 'Metadata', nowMs: 0 });
    expect(t).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: meta,
      columnDefinitions: defaultTableConvertor.columns,
      rows: [
        {
          cells: ['a', '2020-01-01T00:00:00Z'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: { name: 'a', namespace: 'ns', creationTimestamp: '2020-01-01T00:00:00Z' },
          },
        },
      ],
    });
    const none = toTable(scope, [w], meta, { version: 'v1beta1', include: 'None', noHeaders: true });
    expect(none.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(none.columnDefinitions).toBeNull();
    expect(none.rows).toEqual([{ cells: ['a', '2020-01-01T00:00:00Z'] }]);
    expect('object' in none.rows[0]!).toBe(false);
    const obj = toTable(scope, [w], meta, { version: 'v1', include: 'Object', noHeaders: false });
    expect(obj.columnDefinitions).toEqual(defaultTableConvertor.columns);
    expect(obj.rows[0]!.object).toEqual(view.toExternal(w));
    let seenNow = -1;
    const timed = {
      view,
      strategy: { table: { columns: [], cells: (_o: W, now: number) => ((seenNow = now), []) } },
    } as unknown as RestScope<W>;
    toTable(timed, [w], meta, { version: 'v1', include: 'None' });
    expect(Math.abs(seenNow - Date.now())).toBeLessThan(5000);
    toTable(timed, [w], meta, { version: 'v1', include: 'None', nowMs: 42 });
    expect(seenNow).toBe(42);
  });
});
