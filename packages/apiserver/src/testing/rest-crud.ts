import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

const generatedSuffix = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
const unknownField = 'conformanceUnknownField';

/** create, get, update (PUT), generateName, dryRun, fieldValidation, 404 and 405 shapes. */
export function describeCrud(ctx: RestContext): void {
  const { target } = ctx;
  const gr = ctx.qualifiedResource;

  describe('create and get', () => {
    it('POST answers 201 with the stored object; GET returns the same object', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns), { method: 'POST', body: target.newObject('a', ns) });
      expectCode(r, 201);
      expect(r.body.kind).toBe(target.kind);
      expect(r.body.apiVersion).toBe(ctx.groupVersion);
      expect(r.body.metadata.name).toBe('a');
      if (target.namespaced) expect(r.body.metadata.namespace).toBe(ns);
      expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(r.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const g = await ctx.get(ns, 'a');
      expectCode(g, 200);
      expect(g.body).toEqual(r.body);
    });

    it('a body without a namespace takes the URL one', async () => {
      if (!target.namespaced) return;
      const ns = ctx.namespace();
      const body = target.newObject('nons', ns);
      delete body['metadata'].namespace;
      const r = await call(ctx.collection(ns), { method: 'POST', body });
      expectCode(r, 201);
      expect(r.body.metadata.namespace).toBe(ns);
    });

    it('409 AlreadyExists for a duplicate name', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'dup');
      const r = await call(ctx.collection(ns), { method: 'POST', body: target.newObject('dup', ns) });
      expectStatus(r, 409, 'AlreadyExists', `${gr} "dup" already exists`);
      expect(r.body.details).toEqual(ctx.details('dup'));
    });

    it('generateName: 201 with the prefix plus 5 random characters', async () => {
      const ns = ctx.namespace();
      const body = target.newObject('ignored', ns);
      delete body['metadata'].name;
      body['metadata'].generateName = 'gen-';
      const r = await call(ctx.collection(ns), { method: 'POST', body });
      expectCode(r, 201);
      const name = r.body.metadata.name as string;
      expect(name.startsWith('gen-')).toBe(true);
      expect(name.slice(4)).toMatch(generatedSuffix);
      expect(r.body.metadata.generateName).toBe('gen-');
      expectCode(await ctx.get(ns, name), 200);
      const again = await call(ctx.collection(ns), { method: 'POST', body });
      expectCode(again, 201);
      expect(again.body.metadata.name).not.toBe(name);
    });

    it('refuses a client-set resourceVersion (storage.ErrResourceVersionSetOnCreate) and stores nothing', async () => {
      // etcd3 store.Create returns a plain error that InterpretCreateError passes through, so
      // kube-apiserver answers it as a 500 Status without a reason. kevents answers no client
      // input with a 5xx: it keeps Kubernetes' message and says 400 BadRequest.
      const ns = ctx.namespace();
      const body = target.newObject('withrv', ns);
      body['metadata'].resourceVersion = '12';
      const r = await call(ctx.collection(ns), { method: 'POST', body });
      expectStatus(r, 400, 'BadRequest', 'resourceVersion should not be set on objects to be created');
      expect((await ctx.get(ns, 'withrv')).status).toBe(404);
    });

    it('400 when the body namespace differs from the URL namespace', async () => {
      if (!target.namespaced) return;
      const ns = ctx.namespace();
      const body = target.newObject('x', `${ns}-other`);
      const r = await call(ctx.collection(ns), { method: 'POST', body });
      expectStatus(
        r,
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    });

    it('422 Invalid with causes for an invalid object', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns), { method: 'POST', body: target.invalidObject('bad', ns) });
      expectStatus(r, 422, 'Invalid');
      expect(r.body.message.startsWith(`${ctx.qualifiedKind} "bad" is invalid: `)).toBe(true);
      expect(r.body.details.name).toBe('bad');
      expect(r.body.details.kind).toBe(target.kind);
      expect(r.body.details.group ?? '').toBe(target.internalGroup ?? target.group);
      expect(r.body.details.causes.length).toBeGreaterThan(0);
      for (const c of r.body.details.causes) {
        expect(typeof c.reason).toBe('string');
        expect(typeof c.message).toBe('string');
        expect(typeof c.field).toBe('string');
      }
      expect((await ctx.get(ns, 'bad')).status).toBe(404);
    });

    it('422 when neither name nor generateName is given', async () => {
      const ns = ctx.namespace();
      const body = target.newObject('x', ns);
      delete body['metadata'].name;
      const r = await call(ctx.collection(ns), { method: 'POST', body });
      expectStatus(r, 422, 'Invalid');
      expect(r.body.details.causes).toContainEqual({
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      });
    });

    it('dryRun=All creates nothing and answers 201 with the object', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns, { dryRun: 'All' }), {
        method: 'POST',
        body: target.newObject('dry', ns),
      });
      expectCode(r, 201);
      expect(r.body.metadata.name).toBe('dry');
      expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect((await ctx.get(ns, 'dry')).status).toBe(404);
    });

    it('dryRun=All still answers 409 for an existing name', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'dup');
      const r = await call(ctx.collection(ns, { dryRun: 'All' }), {
        method: 'POST',
        body: target.newObject('dup', ns),
      });
      expectStatus(r, 409, 'AlreadyExists', `${gr} "dup" already exists`);
    });

    it('422 for an unsupported dryRun value', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns, { dryRun: 'Bogus' }), {
        method: 'POST',
        body: target.newObject('d', ns),
      });
      // ValidateDryRun passes the whole []string to field.NotSupported.
      expectStatus(
        r,
        422,
        'Invalid',
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      );
      expect((await ctx.get(ns, 'd')).status).toBe(404);
    });

    it('fieldValidation=Strict: 400 for an unknown field', async () => {
      const ns = ctx.namespace();
      const body = { ...target.newObject('strict', ns), [unknownField]: 1 };
      const r = await call(ctx.collection(ns, { fieldValidation: 'Strict' }), { method: 'POST', body });
      expectStatus(r, 400, 'BadRequest', `strict decoding error: unknown field "${unknownField}"`);
      expect((await ctx.get(ns, 'strict')).status).toBe(404);
    });

    it('fieldValidation=Warn: 201 with a Warning header; Ignore: no warning', async () => {
      const ns = ctx.namespace();
      const body = { ...target.newObject('warn', ns), [unknownField]: 1 };
      const r = await call(ctx.collection(ns, { fieldValidation: 'Warn' }), { method: 'POST', body });
      expectCode(r, 201);
      expect(r.headers.get('warning')).toBe(`299 - "unknown field \\"${unknownField}\\""`);
      expect(r.body[unknownField]).toBeUndefined();
      const i = await call(ctx.collection(ns, { fieldValidation: 'Ignore' }), {
        method: 'POST',
        body: { ...target.newObject('ignore', ns), [unknownField]: 1 },
      });
      expectCode(i, 201);
      expect(i.headers.get('warning')).toBeNull();
    });

    it('404 NotFound for a missing object, with details', async () => {
      const ns = ctx.namespace();
      const r = await ctx.get(ns, 'missing');
      expectStatus(r, 404, 'NotFound', `${gr} "missing" not found`);
      expect(r.body.details).toEqual(ctx.details('missing'));
    });

    it('an object is not visible from another namespace', async () => {
      if (!target.namespaced) return;
      const ns = ctx.namespace();
      await ctx.create(ns, 'here');
      expectStatus(await ctx.get(`${ns}-b`, 'here'), 404, 'NotFound', `${gr} "here" not found`);
    });

    it('405 MethodNotAllowed for a verb the URL does not serve (POST to an object)', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'p');
      const r = await call(ctx.item(ns, 'p'), { method: 'POST', body: target.newObject('p', ns) });
      // go-restful's 405, turned into a Status by the apiserver's ServiceErrorHandler.
      expectStatus(r, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    });
  });

  describe('update (PUT)', () => {
    const fresh = async (): Promise<{ ns: string; obj: KubeObject }> => {
      const ns = ctx.namespace();
      return { ns, obj: await ctx.create(ns, 'u') };
    };

    it('200 with the new object and a new resourceVersion; GET agrees', async () => {
      const { ns, obj } = await fresh();
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body: target.mutate(obj) });
      expectCode(r, 200);
      expect(r.body.metadata.uid).toBe(obj['metadata'].uid);
      expect(r.body.metadata.creationTimestamp).toBe(obj['metadata'].creationTimestamp);
      expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThan(Number(obj['metadata'].resourceVersion));
      expect(r.body).not.toEqual(obj);
      expect((await ctx.get(ns, 'u')).body).toEqual(r.body);
    });

    it('409 Conflict for a stale resourceVersion; the object is unchanged', async () => {
      const { ns, obj } = await fresh();
      const first = await call(ctx.item(ns, 'u'), { method: 'PUT', body: target.mutate(obj) });
      expectCode(first, 200);
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body: target.mutate(obj) });
      expectStatus(
        r,
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${gr} "u": the object has been modified; please apply your changes to the latest version and try again`,
      );
      expect(r.body.details).toEqual(ctx.details('u'));
      expect((await ctx.get(ns, 'u')).body).toEqual(first.body);
    });

    it('an update without resourceVersion follows AllowUnconditionalUpdate', async () => {
      const { ns, obj } = await fresh();
      const stored = structuredClone(obj);
      const body = target.mutate(obj);
      delete body['metadata'].resourceVersion;
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      if (target.allowUnconditionalUpdate) {
        expectCode(r, 200);
        expect(r.body.metadata.resourceVersion).not.toBe(obj['metadata'].resourceVersion);
      } else {
        // genericregistry.Store.Update: an Invalid error whose "kind" is the qualified *resource*
        // (`schema.GroupKind{Group: qualifiedResource.Group, Kind: qualifiedResource.Resource}`,
        // see kubernetes#18526), about the uint64 resourceVersion 0 (`%#v`: 0x0).
        expectStatus(
          r,
          422,
          'Invalid',
          `${gr} "u" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
        );
        expect(r.body.details).toEqual({
          name: 'u',
          ...(target.group ? { group: target.group } : {}),
          kind: target.resource,
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 0x0: must be specified for an update',
              field: 'metadata.resourceVersion',
            },
          ],
        });
        expect((await ctx.get(ns, 'u')).body).toEqual(stored);
      }
    });

    it('a PUT to a missing name follows AllowCreateOnUpdate', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.item(ns, 'new'), { method: 'PUT', body: target.newObject('new', ns) });
      if (target.allowCreateOnUpdate) {
        expectCode(r, 201);
        expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
        expectCode(await ctx.get(ns, 'new'), 200);
      } else {
        expectStatus(r, 404, 'NotFound', `${gr} "new" not found`);
      }
    });

    it('400 when the body name differs from the URL name', async () => {
      const { ns, obj } = await fresh();
      const body = target.mutate(obj);
      body['metadata'].name = 'other';
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      expectStatus(r, 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (u)');
    });

    it('400 when the body namespace differs from the URL namespace', async () => {
      if (!target.namespaced) return;
      const { ns, obj } = await fresh();
      const body = target.mutate(obj);
      body['metadata'].namespace = `${ns}-other`;
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      expectStatus(
        r,
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    });

    it('409 Conflict when the body uid differs from the stored uid (a UID precondition)', async () => {
      const { ns, obj } = await fresh();
      const storedUid = obj['metadata'].uid;
      const stored = structuredClone(obj);
      const body = target.mutate(obj);
      const bodyUid = '00000000-0000-4000-8000-000000000001';
      body['metadata'].uid = bodyUid;
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      expectStatus(r, 409, 'Conflict');
      expect(r.body.message.startsWith(`Operation cannot be fulfilled on ${gr} "u": `)).toBe(true);
      expect(r.body.message).toContain(
        `Precondition failed: UID in precondition: ${bodyUid}, UID in object meta: ${storedUid}`,
      );
      expect((await ctx.get(ns, 'u')).body).toEqual(stored);
    });

    it('the body uid precondition is checked before validation', async () => {
      const { ns, obj } = await fresh();
      const body = target.invalidObject('u', ns);
      body['metadata'] = { ...body['metadata'], uid: '00000000-0000-4000-8000-000000000002' };
      body['metadata'].resourceVersion = obj['metadata'].resourceVersion;
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      expectStatus(r, 409, 'Conflict');
    });

    it('422 Invalid for an invalid update; the object is unchanged', async () => {
      const { ns, obj } = await fresh();
      const body = target.invalidObject('u', ns);
      body['metadata'] = { ...body['metadata'], resourceVersion: obj['metadata'].resourceVersion };
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body });
      expectStatus(r, 422, 'Invalid');
      expect(r.body.message.startsWith(`${ctx.qualifiedKind} "u" is invalid: `)).toBe(true);
      expect((await ctx.get(ns, 'u')).body).toEqual(obj);
    });

    it('a no-op update answers 200 and keeps the resourceVersion', async () => {
      const { ns, obj } = await fresh();
      const r = await call(ctx.item(ns, 'u'), { method: 'PUT', body: obj });
      expectCode(r, 200);
      expect(r.body.metadata.resourceVersion).toBe(obj['metadata'].resourceVersion);
      expect((await ctx.get(ns, 'u')).body).toEqual(obj);
    });

    it('dryRun=All answers the updated object and stores nothing', async () => {
      const { ns, obj } = await fresh();
      const r = await call(ctx.item(ns, 'u', { dryRun: 'All' }), { method: 'PUT', body: target.mutate(obj) });
      expectCode(r, 200);
      expect(r.body).not.toEqual(obj);
      expect((await ctx.get(ns, 'u')).body).toEqual(obj);
    });

    it('dryRun=All on a missing name creates nothing', async () => {
      if (!target.allowCreateOnUpdate) return;
      const ns = ctx.namespace();
      const r = await call(ctx.item(ns, 'drynew', { dryRun: 'All' }), {
        method: 'PUT',
        body: target.newObject('drynew', ns),
      });
      expectCode(r, 201);
      expect((await ctx.get(ns, 'drynew')).status).toBe(404);
    });

    it('422 for an unsupported dryRun value', async () => {
      const { ns, obj } = await fresh();
      const r = await call(ctx.item(ns, 'u', { dryRun: 'Bogus' }), { method: 'PUT', body: target.mutate(obj) });
      expectStatus(
        r,
        422,
        'Invalid',
        'UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      );
    });

    it('fieldValidation=Strict: 400 for an unknown field', async () => {
      const { ns, obj } = await fresh();
      const body = { ...target.mutate(obj), [unknownField]: 1 };
      const r = await call(ctx.item(ns, 'u', { fieldValidation: 'Strict' }), { method: 'PUT', body });
      expectStatus(r, 400, 'BadRequest', `strict decoding error: unknown field "${unknownField}"`);
      expect((await ctx.get(ns, 'u')).body).toEqual(obj);
    });
  });
}
