import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import type { Storage } from '@kevents/storage';
import { FieldPath, invalid as invalidField } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import type { ApiError } from '../errors/api-error.js';
import { deleteCollectionTurnItems, Store } from './store.js';
import type { StoreOptions } from './store.js';
import type { ResourceStrategy } from './strategy.js';
import { apiRejection as failure } from '../testing/api-failure.js';
import { widgetStrategy, widgetView } from '../testing/widget-resource.js';
import type { Widget } from '../testing/widget-resource.js';

const view = widgetView();

const validateSpec = (obj: Widget): FieldError[] =>
  obj.spec?.holderIdentity === 'bad'
    ? [invalidField(FieldPath.root('spec').child('holderIdentity'), 'bad', 'must not be bad')]
    : [];

function strategy(o: { createOnUpdate?: boolean; unconditional?: boolean } = {}): ResourceStrategy<Widget> {
  return widgetStrategy({
    allowCreateOnUpdate: o.createOnUpdate ?? false,
    allowUnconditionalUpdate: o.unconditional ?? false,
    prepareForCreate: (obj) => {
      obj.spec = { ...obj.spec, leaseDurationSeconds: obj.spec?.leaseDurationSeconds ?? 15 };
    },
    prepareForUpdate: (obj, old) => {
      if (obj.spec?.leaseDurationSeconds === undefined && old.spec?.leaseDurationSeconds !== undefined) {
        obj.spec = { ...obj.spec, leaseDurationSeconds: old.spec.leaseDurationSeconds };
      }
    },
    validate: (obj) => validateSpec(obj),
    validateUpdate: (obj) => validateSpec(obj),
  });
}

const widget = (name: string, extra: Partial<Widget['metadata']> = {}, holder = 'h'): Widget => ({
  metadata: { name, ...extra },
  spec: { holderIdentity: holder },
});

const statusOf = (e: ApiError): [number, string | undefined, string | undefined] => [
  e.code,
  e.status.reason,
  e.status.message,
];

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage({ watchBatchIntervalMs: 0 });
});
afterEach(async () => {
  await (storage as unknown as { close?: () => Promise<void> | void }).close?.();
});

const makeStore = (o: { createOnUpdate?: boolean; unconditional?: boolean } = {}, opts?: StoreOptions) =>
  new Store<Widget>(storage as Storage, 'widgets', strategy(o), view, opts);

/** A name generator that answers the given names in turn (then the last one forever). */
const names = (...list: string[]): StoreOptions['generateName'] => {
  let i = 0;
  return (prefix) => `${prefix}${list[Math.min(i++, list.length - 1)]}`;
};

describe('Store basics', () => {
  it('keys and prefixes', () => {
    const s = makeStore();
    expect(s.key('ns', 'a')).toEqual({ resource: 'widgets', namespace: 'ns', name: 'a' });
    expect(s.prefix(undefined)).toEqual({ resource: 'widgets' });
    expect('namespace' in s.prefix(undefined)).toBe(false);
    expect(s.prefix('ns')).toEqual({ resource: 'widgets', namespace: 'ns' });
    expect(s.prefix('')).toEqual({ resource: 'widgets', namespace: '' });
    expect([s.resource, s.view, s.storage]).toEqual(['widgets', view, storage]);
  });

  it('get answers 404 named after the view', async () => {
    const s = makeStore();
    expect(statusOf(await failure(s.get('ns', 'nope')))).toEqual([
      404,
      'NotFound',
      'widgets.example.com "nope" not found',
    ]);
    await s.create(widget('a'), 'ns', false);
    const got = await s.get('ns', 'a');
    expect(got.metadata.name).toBe('a');
    expect((await s.get('ns', 'a', got.metadata.resourceVersion)).metadata.uid).toBe(got.metadata.uid);
  });

  it('list reads one namespace or all of them', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns1', false);
    await s.create(widget('b'), 'ns2', false);
    expect((await s.list('ns1', {})).items.map((o) => o.metadata.name)).toEqual(['a']);
    expect((await s.list(undefined, {})).items.map((o) => o.metadata.name).sort()).toEqual(['a', 'b']);
    const err = await failure(s.list(undefined, { continue: 'garbage' } as never));
    expect(err.code).toBe(400);
  });
});

describe('Store.create', () => {
  it('sets the server fields, applies prepareForCreate and stores', async () => {
    const s = makeStore();
    const obj = widget('a', {
      resourceVersion: undefined,
      uid: 'client-uid',
      generation: 4,
      selfLink: '/x',
      deletionTimestamp: '2020-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 3,
    });
    const created = await s.create(obj, 'ns', false);
    expect(created.metadata.namespace).toBe('ns');
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.uid).not.toBe('client-uid');
    expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Kept as sent: generation is the strategy's (this one has no spec/status split), as in kube-apiserver.
    expect(created.metadata.generation).toBe(4);
    expect(created.metadata.selfLink).toBeUndefined();
    expect(created.metadata.deletionTimestamp).toBeUndefined();
    expect(created.metadata.deletionGracePeriodSeconds).toBeUndefined();
    expect(created.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 15 });
    expect(await s.get('ns', 'a')).toEqual(created);
  });

  it('refuses a duplicate (409), a body namespace that differs (400), a resourceVersion (400), invalid objects (422)', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    expect(statusOf(await failure(s.create(widget('a'), 'ns', false)))).toEqual([
      409,
      'AlreadyExists',
      'widgets.example.com "a" already exists',
    ]);
    expect(statusOf(await failure(s.create(widget('b', { namespace: 'other' }), 'ns', false)))).toEqual([
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    ]);
    expect(statusOf(await failure(s.create(widget('b', { resourceVersion: '5' }), 'ns', false)))).toEqual([
      400,
      'BadRequest',
      'resourceVersion should not be set on objects to be created',
    ]);
    expect(statusOf(await failure(s.create(widget('b', {}, 'bad'), 'ns', false)))).toEqual([
      422,
      'Invalid',
      'Widget.example.com "b" is invalid: spec.holderIdentity: Invalid value: "bad": must not be bad',
    ]);
    expect(statusOf(await failure(s.create({ metadata: {}, spec: { holderIdentity: 'bad' } }, 'ns', false)))).toEqual([
      422,
      'Invalid',
      'Widget.example.com "" is invalid: spec.holderIdentity: Invalid value: "bad": must not be bad',
    ]);
    expect((await s.list('ns', {})).items.map((o) => o.metadata.name)).toEqual(['a']);
  });

  it('a dry run checks and writes nothing', async () => {
    const s = makeStore();
    const dry = await s.create(widget('a'), 'ns', true);
    expect(dry.metadata.uid).toBeDefined();
    expect(dry.metadata.resourceVersion).toBeUndefined();
    expect((await s.list('ns', {})).items).toEqual([]);
    await s.create(widget('a'), 'ns', false);
    expect(statusOf(await failure(s.create(widget('a'), 'ns', true)))).toEqual([
      409,
      'AlreadyExists',
      'widgets.example.com "a" already exists',
    ]);
  });

  it('generateName: makes a name and retries collisions', async () => {
    const s = makeStore({}, { generateName: names('aaaaa', 'aaaaa', 'bbbbb') });
    const first = await s.create(widget('', { generateName: 'w-' }), 'ns', false);
    expect(first.metadata.name).toBe('w-aaaaa');
    expect(first.metadata.generateName).toBe('w-');
    const second = await s.create(widget('', { generateName: 'w-' }), 'ns', false);
    expect(second.metadata.name).toBe('w-bbbbb');
    // a dry run retries as well
    const dryStore = makeStore({}, { generateName: names('aaaaa', 'ccccc') });
    expect((await dryStore.create(widget('', { generateName: 'w-' }), 'ns', true)).metadata.name).toBe('w-ccccc');
  });

  it('generateName: gives up after 8 attempts with Kubernetes’ message', async () => {
    let calls = 0;
    const s = makeStore(
      {},
      {
        generateName: (p) => {
          calls++;
          return `${p}same`;
        },
      },
    );
    await s.create(widget('', { generateName: 'w-' }), 'ns', false);
    calls = 0;
    const err = await failure(s.create(widget('', { generateName: 'w-' }), 'ns', false));
    expect(statusOf(err)).toEqual([
      409,
      'AlreadyExists',
      'widgets.example.com "w-same" already exists, the server was not able to generate a unique name for the object',
    ]);
    expect(calls).toBe(8);
    calls = 0;
    const dry = await failure(s.create(widget('', { generateName: 'w-' }), 'ns', true));
    expect(dry.status.message).toContain('the server was not able to generate a unique name');
    expect(calls).toBe(8);
    calls = 0;
    const three = makeStore({}, { generateName: () => 'w-same', maxNameGenerationAttempts: 3 });
    expect((await failure(three.create(widget('', { generateName: 'w-' }), 'ns', false))).code).toBe(409);
  });

  // Kubernetes retries only when the name was empty (createWithGenerateNameRetry).
  it('generateName: a client-set name that starts with generateName is not retried', async () => {
    const s = makeStore({}, { generateName: names('x') });
    await s.create(widget('w-a'), 'ns', false);
    expect(statusOf(await failure(s.create(widget('w-a', { generateName: 'w-' }), 'ns', false)))).toEqual([
      409,
      'AlreadyExists',
      'widgets.example.com "w-a" already exists',
    ]);
  });

  it('generateName: a client-set name is not retried', async () => {
    const s = makeStore({}, { generateName: names('x') });
    await s.create(widget('other'), 'ns', false);
    expect((await failure(s.create(widget('other', { generateName: 'w-' }), 'ns', false))).status.message).toBe(
      'widgets.example.com "other" already exists',
    );
  });

  it('the default generator appends five characters', async () => {
    const s = makeStore();
    const o = await s.create(widget('', { generateName: 'g-' }), 'ns', false);
    expect(o.metadata.name).toMatch(/^g-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});

describe('Store.update', () => {
  const set =
    (holder: string, meta: Partial<Widget['metadata']> = {}) =>
    (cur: Widget | undefined): Widget => ({
      ...(cur ?? { metadata: { name: 'a' } }),
      metadata: { ...(cur?.metadata ?? { name: 'a' }), ...meta },
      spec: { ...cur?.spec, holderIdentity: holder },
    });

  it('updates with the current resourceVersion, keeps system fields, applies prepareForUpdate', async () => {
    const s = makeStore();
    const created = await s.create(widget('a', { generateName: 'g' }), 'ns', false);
    const r = await s.update(
      'ns',
      'a',
      (cur) => ({
        metadata: {
          name: 'a',
          resourceVersion: cur!.metadata.resourceVersion,
          creationTimestamp: '2001-01-01T00:00:00Z',
          generation: 9,
          selfLink: 'x',
        },
        spec: { holderIdentity: 'h2' },
      }),
      { allowCreate: false, dryRun: false },
    );
    expect(r.created).toBe(false);
    expect(r.object.spec).toEqual({ holderIdentity: 'h2', leaseDurationSeconds: 15 });
    expect(r.object.metadata.uid).toBe(created.metadata.uid);
    expect(r.object.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(r.object.metadata.generateName).toBe('g');
    expect(r.object.metadata.generation).toBeUndefined();
    expect(r.object.metadata.selfLink).toBeUndefined();
    expect(r.object.metadata.namespace).toBe('ns');
    expect(Number(r.object.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(await s.get('ns', 'a')).toEqual(r.object);
  });

  it('404 for a missing object unless create-on-update; then 201-style create', async () => {
    const s = makeStore();
    expect(statusOf(await failure(s.update('ns', 'a', set('h'), { allowCreate: false, dryRun: false })))).toEqual([
      404,
      'NotFound',
      'widgets.example.com "a" not found',
    ]);
    expect(statusOf(await failure(s.update('ns', 'a', set('h'), { allowCreate: false, dryRun: true })))).toEqual([
      404,
      'NotFound',
      'widgets.example.com "a" not found',
    ]);
    const dry = await s.update('ns', 'a', set('h', { resourceVersion: '77' }), { allowCreate: true, dryRun: true });
    expect(dry.created).toBe(true);
    expect(dry.object.metadata.resourceVersion).toBeUndefined();
    expect(dry.object.metadata.uid).toBeDefined();
    expect((await s.list('ns', {})).items).toEqual([]);
    const r = await s.update('ns', 'a', set('h', { resourceVersion: '77' }), { allowCreate: true, dryRun: false });
    expect(r.created).toBe(true);
    expect(r.object.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 15 });
    expect(r.object.metadata.namespace).toBe('ns');
    expect(r.object.metadata.uid).toBeDefined();
    expect(await s.get('ns', 'a')).toEqual(r.object);
    // create-on-update validates as a create
    expect(
      statusOf(
        await failure(s.update('ns', 'b', (): Widget => widget('b', {}, 'bad'), { allowCreate: true, dryRun: false })),
      ),
    ).toEqual([
      422,
      'Invalid',
      'Widget.example.com "b" is invalid: spec.holderIdentity: Invalid value: "bad": must not be bad',
    ]);
    // a create on update with a uid is a precondition failure
    expect(
      statusOf(
        await failure(
          s.update('ns', 'c', (): Widget => widget('c', { uid: 'u1' }), { allowCreate: true, dryRun: false }),
        ),
      ),
    ).toEqual([
      409,
      'Conflict',
      'Operation cannot be fulfilled on widgets.example.com "c": Precondition failed: UID in precondition: u1, UID in object meta: ',
    ]);
  });

  it('the name in the body must be the name on the URL', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    for (const [body, shown] of [
      [{ metadata: { name: 'b' } }, 'b'],
      [{ metadata: {} }, ''],
      [{}, ''],
    ] as const) {
      const err = await failure(
        s.update('ns', 'a', () => structuredClone(body) as Widget, { allowCreate: true, dryRun: false }),
      );
      expect(statusOf(err)).toEqual([
        400,
        'BadRequest',
        `the name of the object (${shown}) does not match the name on the URL (a)`,
      ]);
    }
  });

  it('preconditions: body uid (409), stale resourceVersion (409), namespace (400)', async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    const rv = a.metadata.resourceVersion;
    expect(
      statusOf(await failure(s.update('ns', 'a', set('h2', { uid: 'other' }), { allowCreate: false, dryRun: false }))),
    ).toEqual([
      409,
      'Conflict',
      `Operation cannot be fulfilled on widgets.example.com "a": Precondition failed: UID in precondition: other, UID in object meta: ${a.metadata.uid}`,
    ]);
    expect(
      statusOf(
        await failure(
          s.update('ns', 'a', set('h2', { resourceVersion: '1' + rv }), { allowCreate: false, dryRun: false }),
        ),
      ),
    ).toEqual([
      409,
      'Conflict',
      'Operation cannot be fulfilled on widgets.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
    ]);
    expect(
      (
        await failure(
          s.update('ns', 'a', set('h2', { resourceVersion: '1' + rv }), { allowCreate: false, dryRun: true }),
        )
      ).code,
    ).toBe(409);
    expect(
      statusOf(
        await failure(
          s.update('ns', 'a', set('h2', { resourceVersion: rv, namespace: 'x' }), {
            allowCreate: false,
            dryRun: false,
          }),
        ),
      ),
    ).toEqual([
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    ]);
    const ok = await s.update('ns', 'a', set('h2', { uid: a.metadata.uid, resourceVersion: rv }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(ok.object.spec?.holderIdentity).toBe('h2');
    expect((await s.get('ns', 'a')).spec?.holderIdentity).toBe('h2');
  });

  it('an update without resourceVersion is 422 unless the strategy allows unconditional updates', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    expect(
      statusOf(
        await failure(
          s.update('ns', 'a', set('h2', { resourceVersion: undefined }), { allowCreate: false, dryRun: false }),
        ),
      ),
    ).toEqual([
      422,
      'Invalid',
      'widgets.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    ]);
    expect(
      statusOf(
        await failure(s.update('ns', 'a', set('h2', { resourceVersion: '' }), { allowCreate: false, dryRun: true })),
      ),
    ).toEqual([
      422,
      'Invalid',
      'widgets.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    ]);
    const u = makeStore({ unconditional: true });
    const r = await u.update('ns', 'a', set('h3', { resourceVersion: undefined }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(r.object.spec?.holderIdentity).toBe('h3');
    expect(r.object.metadata.resourceVersion).toMatch(/^\d+$/);
  });

  it('validates the update (422)', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    expect(statusOf(await failure(s.update('ns', 'a', set('bad'), { allowCreate: false, dryRun: false })))).toEqual([
      422,
      'Invalid',
      'Widget.example.com "a" is invalid: spec.holderIdentity: Invalid value: "bad": must not be bad',
    ]);
  });

  it('a no-op update does not write', async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    const r = await s.update('ns', 'a', set('h'), { allowCreate: false, dryRun: false });
    expect(r).toEqual({ object: a, created: false });
    expect((await s.get('ns', 'a')).metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    const d = await s.update('ns', 'a', set('h'), { allowCreate: false, dryRun: true });
    expect(d).toEqual({ object: a, created: false });
    // no write: a following change gets the next resourceVersion after the create
    const before = (await storage.list({ resource: 'widgets' }, {})).resourceVersion;
    await s.update('ns', 'a', set('h'), { allowCreate: false, dryRun: false });
    expect((await storage.list({ resource: 'widgets' }, {})).resourceVersion).toBe(before);
    // Not equal objects, but equal encodings (an empty map is left out, as Go's omitempty does): no write.
    const emptyLabels = await s.update('ns', 'a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: {} } }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(emptyLabels.object.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect((await storage.list({ resource: 'widgets' }, {})).resourceVersion).toBe(before);
  });

  it('a write that changes only the times of managedFields entries keeps the stored entries and writes nothing', async () => {
    // kube-apiserver's IgnoreManagedFieldsTimestampsTransformer.
    const entry = (manager: string, time: string) => ({
      manager,
      operation: 'Update' as const,
      apiVersion: 'example.com/v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
    });
    const s = makeStore();
    const a = await s.create(widget('a', { managedFields: [entry('m', '2020-01-01T00:00:00Z')] }), 'ns', false);
    const later = set('h', { managedFields: [entry('m', '2030-01-01T00:00:00Z')] });
    expect(await s.update('ns', 'a', later, { allowCreate: false, dryRun: false })).toEqual({
      object: a,
      created: false,
    });
    // Another manager, or the same times with a changed object, are writes.
    const other = await s.update('ns', 'a', set('h', { managedFields: [entry('n', '2030-01-01T00:00:00Z')] }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(other.object.metadata.resourceVersion).not.toBe(a.metadata.resourceVersion);
    expect(other.object.metadata.managedFields?.map((e) => [e.manager, e.time])).toEqual([
      ['n', '2030-01-01T00:00:00Z'],
    ]);
    const changed = await s.update('ns', 'a', set('h2', { managedFields: [entry('n', '2031-01-01T00:00:00Z')] }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(changed.object.metadata.managedFields?.[0]?.time).toBe('2031-01-01T00:00:00Z');
    expect(changed.object.spec?.holderIdentity).toBe('h2');
    // Two entries where one time changed: still only times.
    const two = [entry('n', '2031-01-01T00:00:00Z'), entry('o', '2031-01-01T00:00:00Z')];
    const withTwo = await s.update('ns', 'a', set('h2', { managedFields: two }), { allowCreate: false, dryRun: false });
    const same = await s.update(
      'ns',
      'a',
      set('h2', { managedFields: [two[0]!, entry('o', '2040-01-01T00:00:00Z')] }),
      { allowCreate: false, dryRun: false },
    );
    expect(same.object).toEqual(withTwo.object);
  });

  it('a dry-run update answers the new object and writes nothing', async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    const r = await s.update('ns', 'a', set('h2'), { allowCreate: false, dryRun: true });
    expect(r.created).toBe(false);
    expect(r.object.spec?.holderIdentity).toBe('h2');
    expect(r.object.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(await s.get('ns', 'a')).toEqual(a);
  });
});

describe('Store.delete and finalizers', () => {
  it('deletes; 404 when missing; dry run keeps it', async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    const dry = await s.delete('ns', 'a', { dryRun: true });
    expect(dry).toEqual({ object: a, deleted: true });
    expect(await s.get('ns', 'a')).toEqual(a);
    const r = await s.delete('ns', 'a', { dryRun: false });
    expect(r.deleted).toBe(true);
    expect(r.object.metadata.uid).toBe(a.metadata.uid);
    expect((await failure(s.get('ns', 'a'))).code).toBe(404);
    expect(statusOf(await failure(s.delete('ns', 'a', { dryRun: false })))).toEqual([
      404,
      'NotFound',
      'widgets.example.com "a" not found',
    ]);
  });

  it('checks uid and resourceVersion preconditions (409)', async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    expect(statusOf(await failure(s.delete('ns', 'a', { dryRun: false, preconditions: { uid: 'x' } })))).toEqual([
      409,
      'Conflict',
      `Operation cannot be fulfilled on Widget.example.com "a": the UID in the precondition (x) does not match the UID in record (${a.metadata.uid}). The object might have been deleted and then recreated`,
    ]);
    expect(
      statusOf(await failure(s.delete('ns', 'a', { dryRun: true, preconditions: { resourceVersion: '999' } }))),
    ).toEqual([
      409,
      'Conflict',
      `Operation cannot be fulfilled on Widget.example.com "a": the ResourceVersion in the precondition (999) does not match the ResourceVersion in record (${a.metadata.resourceVersion}). The object might have been modified`,
    ]);
    const ok = await s.delete('ns', 'a', {
      dryRun: false,
      preconditions: { uid: a.metadata.uid, resourceVersion: a.metadata.resourceVersion },
    });
    expect(ok.deleted).toBe(true);
  });

  it('an object with finalizers is marked for deletion, and the update that empties them deletes it', async () => {
    const s = makeStore();
    const a = await s.create(widget('a', { finalizers: ['x/y'] }), 'ns', false);
    const dry = await s.delete('ns', 'a', { dryRun: true });
    expect(dry.deleted).toBe(false);
    expect(dry.object.metadata.deletionTimestamp).toBeDefined();
    expect(dry.object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await s.get('ns', 'a')).metadata.deletionTimestamp).toBeUndefined();

    const marked = await s.delete('ns', 'a', { dryRun: false });
    expect(marked.deleted).toBe(false);
    expect(marked.object.metadata.deletionTimestamp).toMatch(/Z$/);
    expect(marked.object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(Number(marked.object.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata.resourceVersion));
    expect(await s.get('ns', 'a')).toEqual(marked.object);

    // deleting again changes nothing
    const again = await s.delete('ns', 'a', { dryRun: false });
    expect(again).toEqual({ object: marked.object, deleted: false });

    // an update keeps the deletion fields and refuses new finalizers
    const keep = await s.update(
      'ns',
      'a',
      (cur) => ({
        ...cur!,
        metadata: {
          ...cur!.metadata,
          deletionTimestamp: undefined,
          deletionGracePeriodSeconds: undefined,
          labels: { l: 'v' },
        },
      }),
      { allowCreate: false, dryRun: false },
    );
    expect(keep.object.metadata.deletionTimestamp).toBe(marked.object.metadata.deletionTimestamp);
    expect(keep.object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(keep.object.metadata.labels).toEqual({ l: 'v' });
    const added = await failure(
      s.update('ns', 'a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: ['x/y', 'a/b', 'c/d'] } }), {
        allowCreate: false,
        dryRun: false,
      }),
    );
    expect(statusOf(added)).toEqual([
      422,
      'Invalid',
      'Widget.example.com "a" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b", "c/d"}',
    ]);

    // a dry-run update that empties the finalizers answers the object and keeps it
    const dryEmpty = await s.update('ns', 'a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }), {
      allowCreate: false,
      dryRun: true,
    });
    expect(dryEmpty.created).toBe(false);
    expect(dryEmpty.object.metadata.finalizers).toEqual([]);
    expect((await s.get('ns', 'a')).metadata.finalizers).toEqual(['x/y']);

    const gone = await s.update(
      'ns',
      'a',
      (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: undefined } }),
      { allowCreate: false, dryRun: false },
    );
    expect(gone.created).toBe(false);
    expect(gone.object.metadata.name).toBe('a');
    // Kubernetes answers the update's own object (deleteWithoutFinalizers), not the deleted one
    expect(gone.object.metadata.finalizers).toBeUndefined();
    expect((await failure(s.get('ns', 'a'))).code).toBe(404);
  });

  it('removing a finalizer of an object not being deleted only updates it', async () => {
    const s = makeStore();
    await s.create(widget('a', { finalizers: ['x/y'] }), 'ns', false);
    const r = await s.update('ns', 'a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }), {
      allowCreate: false,
      dryRun: false,
    });
    expect(r.object.metadata.finalizers).toEqual([]);
    expect((await s.get('ns', 'a')).metadata.finalizers).toEqual([]);
    // and adding finalizers is fine then
    const more = await s.update(
      'ns',
      'a',
      (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: ['n/1'] } }),
      { allowCreate: false, dryRun: false },
    );
    expect(more.object.metadata.finalizers).toEqual(['n/1']);
  });

  it('a delete with finalizers checks the preconditions', async () => {
    const s = makeStore();
    await s.create(widget('a', { finalizers: ['x/y'] }), 'ns', false);
    expect((await failure(s.delete('ns', 'a', { dryRun: false, preconditions: { uid: 'x' } }))).code).toBe(409);
    expect((await s.get('ns', 'a')).metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('Store.deleteCollection', () => {
  it('deletes or marks every listed item; a dry run answers them as each delete would and keeps them', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    await s.create(widget('b', { finalizers: ['f/g'] }), 'ns', false);
    await s.create(widget('c'), 'other', false);
    const dry = await s.deleteCollection('ns', {}, { dryRun: true });
    expect(dry.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(dry.resourceVersion).toMatch(/^\d+$/);
    expect(dry.items[1]!.metadata.deletionTimestamp).toBeDefined();
    expect((await s.list('ns', {})).items).toHaveLength(2);
    const r = await s.deleteCollection('ns', {}, { dryRun: false });
    expect(r.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(r.items[1]!.metadata.deletionTimestamp).toBeDefined();
    expect((await s.list('ns', {})).items.map((o) => o.metadata.name)).toEqual(['b']);
    expect((await s.list('other', {})).items).toHaveLength(1);
    const all = await s.deleteCollection(undefined, {}, { dryRun: false });
    expect(all.items.map((o) => o.metadata.name)).toEqual(['b', 'c']);
    expect((await s.list(undefined, {})).items.map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('lets other work run between slices of deletes (a memory store resolves each without waiting)', async () => {
    const s = makeStore();
    const n = 3 * deleteCollectionTurnItems + 5;
    for (let i = 0; i < n; i++) await s.create(widget(`w${i}`), 'ns', false);
    const realDelete = s.delete.bind(s);
    let deleted = 0;
    (s as unknown as { delete: typeof s.delete }).delete = async (...args) => {
      const r = await realDelete(...args);
      deleted++;
      return r;
    };
    const seen: number[] = [];
    let ticking = true;
    const tick = (): void => {
      seen.push(deleted);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await s.deleteCollection('ns', {}, { dryRun: false });
    ticking = false;
    expect(r.items).toHaveLength(n);
    // Ticks ran while the deletes went on, at most one slice apart.
    const during = seen.filter((d) => d > 0 && d < n);
    expect(during.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]! - seen[i - 1]!).toBeLessThanOrEqual(deleteCollectionTurnItems);
  });

  it("checks the client's preconditions on each item in list order; the first that fails is the answer (409)", async () => {
    const s = makeStore();
    const a = await s.create(widget('a'), 'ns', false);
    const b = await s.create(widget('b'), 'ns', false);
    const first = await failure(
      s.deleteCollection('ns', {}, { dryRun: false, preconditions: { uid: b.metadata.uid } }),
    );
    expect([first.code, first.status.reason, first.status.details?.name]).toEqual([409, 'Conflict', 'a']);
    expect(first.status.message).toContain(`the UID in the precondition (${b.metadata.uid}) does not match`);
    expect((await s.list('ns', {})).items).toHaveLength(2);
    const rv = { resourceVersion: a.metadata.resourceVersion };
    const second = await failure(s.deleteCollection('ns', {}, { dryRun: false, preconditions: rv }));
    expect([second.code, second.status.details?.name]).toEqual([409, 'b']);
    // kube with one worker: the items before the failure stay deleted.
    expect((await s.list('ns', {})).items.map((o) => o.metadata.name)).toEqual(['b']);
    const empty = await s.deleteCollection('ns', {}, { dryRun: false, preconditions: {} });
    expect(empty.items.map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('skips items deleted or replaced meanwhile, and fails on other errors', async () => {
    const s = makeStore();
    await s.create(widget('a'), 'ns', false);
    await s.create(widget('b'), 'ns', false);
    // replace "b" with a new object of the same name between the list and the delete
    const listed = await s.list('ns', {});
    await s.delete('ns', 'a', { dryRun: false });
    await s.delete('ns', 'b', { dryRun: false });
    await s.create(widget('b'), 'ns', false);
    const fake = makeStore();
    (fake as unknown as { list: () => Promise<unknown> }).list = async () => listed;
    const r = await fake.deleteCollection('ns', {}, { dryRun: false });
    expect(r.items).toEqual([]);
    expect((await s.list('ns', {})).items.map((o) => o.metadata.name)).toEqual(['b']);
    // another error is thrown
    const broken = makeStore();
    (broken as unknown as { delete: () => Promise<unknown> }).delete = async () => {
      throw new Error('boom');
    };
    (broken as unknown as { list: () => Promise<unknown> }).list = async () => listed;
    await expect(broken.deleteCollection('ns', {}, { dryRun: false })).rejects.toThrow('boom');
  });
});
