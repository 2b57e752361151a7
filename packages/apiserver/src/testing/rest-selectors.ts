import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, escapeFieldValue, expectCode, expectStatus } from './http.js';
import type { KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

/** Objects labelled for the label-selector cases. */
const labelled: Readonly<Record<string, Record<string, string>>> = {
  l1: { app: 'web', tier: 'front', n: '1' },
  l2: { app: 'web', tier: 'back', n: '5' },
  l3: { app: 'db', n: '10' },
  l4: { other: 'x', n: 'abc' },
  l5: {},
};

/** label selector → expected names (of l1..l5). */
const labelCases: readonly (readonly [string, readonly string[]])[] = [
  ['app=web', ['l1', 'l2']],
  ['app==web', ['l1', 'l2']],
  ['app!=web', ['l3', 'l4', 'l5']],
  ['app in (web,db)', ['l1', 'l2', 'l3']],
  ['app in (db)', ['l3']],
  ['app notin (web)', ['l3', 'l4', 'l5']],
  ['tier', ['l1', 'l2']],
  ['!tier', ['l3', 'l4', 'l5']],
  ['n>1', ['l2', 'l3']],
  ['n<5', ['l1']],
  ['app=web,tier=back', ['l2']],
  ['app=web,!tier', []],
  ['app in (web),n>2', ['l2']],
  ['other=', []],
  ['tier notin (front,back),app', ['l3']],
  ['', ['l1', 'l2', 'l3', 'l4', 'l5']],
];

/** Malformed label selectors and the messages of `labels.Parse` (400 BadRequest). */
const badLabelSelectors: readonly (readonly [string, string])[] = [
  ['!', "unable to parse requirement: found '', expected: identifier"],
  ['app in web', "unable to parse requirement: found 'web' expected: '('"],
  ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
  ['app web', "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt"],
  ['app=web,', "found '', expected: identifier after ','"],
  ['=web', "found '=', expected: !, identifier, or 'end of string'"],
  ['app=web x', "found 'x', expected: ',' or 'end of string'"],
  [
    'n>abc',
    `unable to parse requirement: values[0]: Invalid value: "abc": for 'Gt', 'Lt' operators, the value must be an integer`,
  ],
  // The parser checks a key with its own field path, which labels.Parse leaves nil.
  [
    'app_=web',
    `unable to parse requirement: <nil>: Invalid value: "app_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ],
];

/** Label selectors and field selectors on list and deletecollection (watch: see rest-watch). */
export function describeSelectors(ctx: RestContext): void {
  const { target } = ctx;

  describe('label selectors', () => {
    let ns = '';
    beforeAll(async () => {
      ns = ctx.namespace('labels');
      for (const [name, labels] of Object.entries(labelled)) {
        await ctx.create(ns, name, (o) => ({ ...o, metadata: { ...o['metadata'], labels } }));
      }
    });

    for (const [selector, expected] of labelCases) {
      it(`labelSelector=${JSON.stringify(selector)} selects ${JSON.stringify(expected)}`, async () => {
        expect(await ctx.names(ctx.collection(ns, { labelSelector: selector }))).toEqual(expected);
      });
    }

    it('malformed label selectors are 400 BadRequest with the parser message', async () => {
      for (const [selector, message] of badLabelSelectors) {
        const r = await call(ctx.collection(ns, { labelSelector: selector }));
        expectStatus(r, 400, 'BadRequest', message);
      }
    });

    it('a label selector applies across all namespaces', async () => {
      if (!target.namespaced) return;
      const r = await call(ctx.collection(undefined, { labelSelector: 'app=web,tier=back' }));
      expectCode(r, 200);
      const mine = (r.body.items as KubeObject[]).filter((i) => i['metadata'].namespace === ns);
      expect(mine.map((i) => i['metadata'].name)).toEqual(['l2']);
    });

    it('deletecollection deletes only what the label selector selects', async () => {
      const dns = ctx.namespace('dcl');
      for (const [name, labels] of Object.entries(labelled)) {
        await ctx.create(dns, name, (o) => ({ ...o, metadata: { ...o['metadata'], labels } }));
      }
      const r = await call(ctx.collection(dns, { labelSelector: 'app in (web,db),n>1' }), { method: 'DELETE' });
      expectCode(r, 200);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name).sort()).toEqual(['l2', 'l3']);
      expect(await ctx.names(ctx.collection(dns))).toEqual(['l1', 'l4', 'l5']);
    });

    it('deletecollection with a malformed label selector is a 400 and deletes nothing', async () => {
      const dns = ctx.namespace('dcl');
      await ctx.create(dns, 'a');
      const r = await call(ctx.collection(dns, { labelSelector: 'app in web' }), { method: 'DELETE' });
      expectStatus(r, 400, 'BadRequest', "unable to parse requirement: found 'web' expected: '('");
      expect(await ctx.names(ctx.collection(dns))).toEqual(['a']);
    });
  });

  describe('field selectors', () => {
    let ns = '';
    let objects: KubeObject[] = [];
    beforeAll(async () => {
      ns = ctx.namespace('fields');
      for (const name of ['f1', 'f2', 'f3']) await ctx.create(ns, name);
      objects = (await call(ctx.collection(ns))).body.items as KubeObject[];
    });

    const labels: Record<string, (o: KubeObject) => string> = {
      'metadata.name': (o) => o['metadata'].name as string,
      ...(target.namespaced ? { 'metadata.namespace': (o: KubeObject) => o['metadata'].namespace as string } : {}),
      ...target.fieldSelectors,
    };

    for (const [label, valueOf] of Object.entries(labels)) {
      it(`${label}: =, == and != select by the object's value`, async () => {
        const values = [valueOf(objects[0]!), 'no-such-value'];
        for (const value of values) {
          for (const op of ['=', '==', '!=']) {
            const want = objects
              .filter((o) => (valueOf(o) === value) === (op !== '!='))
              .map((o) => o['metadata'].name as string);
            const got = await ctx.names(
              ctx.collection(ns, { fieldSelector: `${label}${op}${escapeFieldValue(value)}` }),
            );
            expect({ selector: `${label}${op}${value}`, got }).toEqual({
              selector: `${label}${op}${value}`,
              got: want,
            });
          }
        }
      });
    }

    it('several terms are ANDed', async () => {
      const got = await ctx.names(ctx.collection(ns, { fieldSelector: 'metadata.name!=f1,metadata.name!=f3' }));
      expect(got).toEqual(['f2']);
    });

    it('metadata.namespace selects across all namespaces', async () => {
      if (!target.namespaced) return;
      const got = await ctx.names(ctx.collection(undefined, { fieldSelector: `metadata.namespace=${ns}` }));
      expect(got).toEqual(['f1', 'f2', 'f3']);
    });

    it('an unsupported field label is a 400: field label not supported', async () => {
      const r = await call(ctx.collection(ns, { fieldSelector: 'bogus.field=x' }));
      expectStatus(r, 400, 'BadRequest', 'field label not supported: bogus.field');
    });

    it('a term without an operator is a 400', async () => {
      const r = await call(ctx.collection(ns, { fieldSelector: 'metadata.name' }));
      expectStatus(r, 400, 'BadRequest', "invalid selector: 'metadata.name'; can't understand 'metadata.name'");
    });

    it('deletecollection deletes only what the field selector selects', async () => {
      const dns = ctx.namespace('dcf');
      for (const name of ['a', 'b', 'c']) await ctx.create(dns, name);
      const r = await call(ctx.collection(dns, { fieldSelector: 'metadata.name!=b' }), { method: 'DELETE' });
      expectCode(r, 200);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name).sort()).toEqual(['a', 'c']);
      expect(await ctx.names(ctx.collection(dns))).toEqual(['b']);
    });

    it('deletecollection with an unsupported field label is a 400 and deletes nothing', async () => {
      const dns = ctx.namespace('dcf');
      await ctx.create(dns, 'a');
      const r = await call(ctx.collection(dns, { fieldSelector: 'bogus.field=x' }), { method: 'DELETE' });
      expectStatus(r, 400, 'BadRequest', 'field label not supported: bogus.field');
      expect(await ctx.names(ctx.collection(dns))).toEqual(['a']);
    });
  });
}
