import { afterEach, describe, expect } from '@jest/globals';
import { call, expectCode, query, uniqueName, WatchStream } from './http.js';
import type { HttpAnswer, KubeObject } from './http.js';
import { describeCrud } from './rest-crud.js';
import { describeDelete } from './rest-delete.js';
import { describeFinalizers } from './rest-finalizers.js';
import { describeList } from './rest-list.js';
import { describePatch } from './rest-patch.js';
import { describeSelectors } from './rest-selectors.js';
import { describeWatch } from './rest-watch.js';

/**
 * One resource served over the Kubernetes REST protocol, as the REST conformance suite sees it.
 * Everything is exercised over HTTP (global `fetch`) against {@link RestConformanceTarget.server}.
 */
export interface RestConformanceTarget {
  /** The suite title; defaults to `<resource>.<group>/<version>`. */
  readonly title?: string;
  /** The API group; `''` for the core group (served under `/api`). */
  readonly group: string;
  readonly version: string;
  /** The resource (plural, lower case): `events`. */
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  /**
   * The API group of the type the resource is stored as. Kubernetes builds Invalid errors
   * (`<Kind>[.<group>] "<name>" is invalid: ...`) and the delete-precondition Conflict
   * (`Operation cannot be fulfilled on <Kind>[.<group>] ...`) from the storage strategy's type,
   * not from the request: events.k8s.io Events are core Events, so this is `''` for them.
   * Defaults to {@link group}.
   */
  readonly internalGroup?: string;
  /** A valid body to create an object with this name and namespace (kind and apiVersion included). */
  newObject(name: string, namespace: string): KubeObject;
  /** A valid update of a stored object (as read from the server) that changes something. */
  mutate(obj: KubeObject): KubeObject;
  /** A body that validation refuses (422) for this name and namespace. */
  invalidObject(name: string, namespace: string): KubeObject;
  /**
   * The field-selector labels the resource supports besides `metadata.name` and
   * `metadata.namespace`, each with the value it has on an object as the server returns it.
   */
  readonly fieldSelectors: Readonly<Record<string, (obj: KubeObject) => string>>;
  /** `AllowCreateOnUpdate`: a PUT to a missing name creates it (201) instead of 404. */
  readonly allowCreateOnUpdate: boolean;
  /** `AllowUnconditionalUpdate`: a PUT without `metadata.resourceVersion` is accepted. */
  readonly allowUnconditionalUpdate: boolean;
  /** The server's base URL (`http://127.0.0.1:1234`), available once the caller's `beforeAll` ran. */
  server(): string;
  /**
   * Optional: compacts the server's history so that every resourceVersion seen so far is too
   * old for a watch or an exact list (410 Expired). Without it the 410 cases are skipped.
   */
  compact?(): Promise<void>;
}

/** What the parts of the suite share: the target, URLs and small helpers. */
export interface RestContext {
  readonly target: RestConformanceTarget;
  /** `events.events.k8s.io`, or `events` for the core group. */
  readonly qualifiedResource: string;
  /** `Event` for events (the Kind qualified by {@link RestConformanceTarget.internalGroup}). */
  readonly qualifiedKind: string;
  /** `events.k8s.io/v1` or `v1`. */
  readonly groupVersion: string;
  /** A fresh namespace name for one test. */
  namespace(prefix?: string): string;
  /** The collection URL in a namespace, or across all namespaces when `ns` is undefined. */
  collection(ns?: string, params?: Record<string, string | number | boolean | undefined>): string;
  /** The legacy `/watch/` collection URL. */
  legacyWatch(ns?: string, params?: Record<string, string | number | boolean | undefined>): string;
  item(ns: string, name: string, params?: Record<string, string | number | boolean | undefined>): string;
  /** Creates `newObject(name, ns)` (with `edit` applied) and expects 201; returns the stored object. */
  create(ns: string, name: string, edit?: (o: KubeObject) => KubeObject): Promise<KubeObject>;
  get(ns: string, name: string): Promise<HttpAnswer>;
  /** The names of a list answer's items, in order. */
  names(url: string): Promise<string[]>;
  /** Opens a watch that is closed after the test. */
  watch(url: string): Promise<WatchStream>;
  /** `{ name, group?, kind: resource }`: `details` of a Status about one object. */
  details(name: string): Record<string, string>;
}

function makeContext(target: RestConformanceTarget, opened: WatchStream[]): RestContext {
  const groupVersion = target.group ? `${target.group}/${target.version}` : target.version;
  const prefix = (): string => `${target.server()}${target.group ? `/apis/${groupVersion}` : `/api/${target.version}`}`;
  const scope = (ns?: string): string =>
    target.namespaced && ns !== undefined ? `/namespaces/${encodeURIComponent(ns)}` : '';
  const internalGroup = target.internalGroup ?? target.group;
  const ctx: RestContext = {
    target,
    qualifiedResource: target.group ? `${target.resource}.${target.group}` : target.resource,
    qualifiedKind: internalGroup ? `${target.kind}.${internalGroup}` : target.kind,
    groupVersion,
    namespace: (p = 'conf') => uniqueName(p),
    collection: (ns, params = {}) => `${prefix()}${scope(ns)}/${target.resource}${query(params)}`,
    legacyWatch: (ns, params = {}) => `${prefix()}/watch${scope(ns)}/${target.resource}${query(params)}`,
    item: (ns, name, params = {}) =>
      `${prefix()}${scope(ns)}/${target.resource}/${encodeURIComponent(name)}${query(params)}`,
    create: async (ns, name, edit = (o) => o) => {
      const r = await call(ctx.collection(ns), { method: 'POST', body: edit(target.newObject(name, ns)) });
      expectCode(r, 201);
      return r.body as KubeObject;
    },
    get: (ns, name) => call(ctx.item(ns, name)),
    names: async (url) => {
      const r = await call(url);
      expectCode(r, 200);
      expect(r.body.kind).toBe(target.listKind);
      return (r.body.items as KubeObject[]).map((i) => i['metadata'].name as string);
    },
    watch: async (url) => {
      const w = await WatchStream.open(url);
      opened.push(w);
      return w;
    },
    details: (name) => ({
      name,
      ...(target.group ? { group: target.group } : {}),
      kind: target.resource,
    }),
  };
  return ctx;
}

/**
 * Registers the REST conformance suite (Jest `describe`/`it` blocks) for one resource, like
 * Kubernetes' `resttest.Tester`: every verb, preconditions, dry runs, generateName, finalizers,
 * selectors, pagination and watches, with the Status codes, reasons and messages kube-apiserver
 * answers. Call it at the top level of a test file whose `beforeAll` starts the server.
 */
export function runRestConformance(target: RestConformanceTarget): void {
  const title = target.title ?? `${target.resource}.${target.group || 'core'}/${target.version}`;
  describe(`REST conformance: ${title}`, () => {
    const opened: WatchStream[] = [];
    afterEach(() => {
      for (const w of opened.splice(0)) w.close();
    });
    const ctx = makeContext(target, opened);
    describeCrud(ctx);
    describePatch(ctx);
    describeDelete(ctx);
    describeFinalizers(ctx);
    describeList(ctx);
    describeSelectors(ctx);
    describeWatch(ctx);
  });
}
