import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RestScope } from '../scope/rest-scope.js';
import { buildPredicate } from './predicate.js';
import { apiFailure } from '../testing/api-failure.js';
import { widgetView } from '../testing/widget-resource.js';
import type { Widget as W } from '../testing/widget-resource.js';

const view = widgetView({ fieldLabels: ['spec.holder'] });
const scope = {
  view,
  strategy: { fieldValue: (o: W, label: string) => (label === 'spec.holder' ? (o.spec?.holderIdentity ?? '') : 'x') },
} as unknown as RestScope<W>;

const w = (name: string, ns: string, holder: string, labels?: Record<string, string>): W => ({
  metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
  spec: { holderIdentity: holder },
});
const items = [
  w('a', 'n1', 'h1', { app: 'x' }),
  w('b', 'n2', 'h2', { app: 'y' }),
  w('c', 'n1', '', {}),
  { metadata: {} } as W,
];
const names = (p: ((o: W) => boolean) | undefined) =>
  items.filter((o) => (p ? p(o) : true)).map((o) => o.metadata.name ?? '-');

describe('buildPredicate', () => {
  it('no selector: no predicate', () => {
    expect(buildPredicate(scope)).toBeUndefined();
    expect(buildPredicate(scope, '', '')).toBeUndefined();
  });
  it('labels, fields and both', () => {
    expect(names(buildPredicate(scope, 'app=x'))).toEqual(['a']);
    expect(names(buildPredicate(scope, 'app'))).toEqual(['a', 'b']);
    expect(names(buildPredicate(scope, undefined, 'metadata.name=b'))).toEqual(['b']);
    expect(names(buildPredicate(scope, undefined, 'metadata.name!=b'))).toEqual(['a', 'c', '-']);
    expect(names(buildPredicate(scope, undefined, 'metadata.namespace=n1'))).toEqual(['a', 'c']);
    expect(names(buildPredicate(scope, undefined, 'metadata.namespace='))).toEqual(['-']);
    expect(names(buildPredicate(scope, undefined, 'metadata.name='))).toEqual(['-']);
    expect(names(buildPredicate(scope, undefined, 'spec.holder=h2'))).toEqual(['b']);
    expect(names(buildPredicate(scope, undefined, 'spec.holder=='))).toEqual(['c', '-']);
    expect(names(buildPredicate(scope, 'app', 'metadata.namespace==n1'))).toEqual(['a']);
    expect(names(buildPredicate(scope, 'app!=x', 'metadata.namespace!=n1'))).toEqual(['b', '-']);
  });
  it('400 for an unknown field label or a malformed selector', () => {
    const e = apiFailure(() => buildPredicate(scope, undefined, 'spec.other=x'));
    expect([e.code, e.status.message]).toEqual([400, 'field label not supported: spec.other']);
    const l = apiFailure(() => buildPredicate(scope, 'a in (', undefined));
    expect(l.code).toBe(400);
    const f = apiFailure(() => buildPredicate(scope, undefined, 'novalue'));
    expect(f.code).toBe(400);
  });
  it('does not swallow other errors', () => {
    const broken = {
      ...scope,
      view: {
        fieldLabel: () => {
          throw new TypeError('boom');
        },
      },
    } as unknown as RestScope<W>;
    expect(() => buildPredicate(broken, undefined, 'a=b')).toThrow(TypeError);
  });
});

describe('buildPredicate, field terms merged per field', () => {
  const fieldsOf = ['metadata.name', 'metadata.namespace', 'spec.holder'] as const;
  const valueOf = (o: W, f: (typeof fieldsOf)[number]): string =>
    f === 'metadata.name'
      ? (o.metadata.name ?? '')
      : f === 'metadata.namespace'
        ? (o.metadata.namespace ?? '')
        : (o.spec?.holderIdentity ?? '');

  it('matches what every term on its own says', () => {
    const value = fc.constantFrom('', 'a', 'b', 'n1', 'h1');
    const term = fc.record({ field: fc.constantFrom(...fieldsOf), op: fc.constantFrom('=', '!='), value });
    const object = fc.record({ name: value, ns: value, holder: value });
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 8 }), fc.array(object, { maxLength: 6 }), (terms, objs) => {
        const p = buildPredicate(scope, undefined, terms.map((t) => `${t.field}${t.op}${t.value}`).join(','))!;
        for (const o of objs) {
          const obj = w(o.name, o.ns, o.holder);
          expect(p(obj)).toBe(terms.every((t) => (valueOf(obj, t.field) === t.value) === (t.op === '=')));
        }
      }),
    );
  });

  it('reads each field once per object, however many terms name it', () => {
    let reads = 0;
    const counting = {
      ...scope,
      strategy: { fieldValue: (o: W, label: string) => (reads++, scope.strategy.fieldValue(o, label)) },
    } as unknown as RestScope<W>;
    const selector = Array.from({ length: 2_000 }, (_, i) => `spec.holder!=h${i}`).join(',');
    const p = buildPredicate(counting, undefined, selector)!;
    expect(p(w('a', 'n1', 'zz'))).toBe(true);
    expect(reads).toBe(1);
  });
});
