import type { ObjectSchema } from '../schema/types.js';
import { deleteOptionsSchema } from '../schema/meta-schemas.js';
import { apiResourceListSchema, patchSchema, statusSchema, watchEventSchema } from '../schema/openapi-extra-schemas.js';
import type { GroupVersionKind } from './definitions.js';
import type { OpenAPIGroupVersion, OpenAPIInput, OpenAPIResource } from './input.js';
import { defaultPatchTypes } from './input.js';
import { groupVersionOperationName, groupVersionTag } from './operation-id.js';
import {
  deleteCollectionParameters,
  deleteParameters,
  listParameters,
  nameParameter,
  namespaceParameter,
  patchParameters,
  queryParameters,
  writeParameters,
} from './parameters.js';
import type { ParameterSpec } from './parameters.js';

/** HTTP methods, lower case as OpenAPI path items name them. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** One response of an operation. */
export interface ResponseSpec {
  readonly code: string;
  readonly description: string;
  readonly schema?: ObjectSchema;
}

/** One operation, independent of the OpenAPI version. */
export interface OperationSpec {
  readonly method: HttpMethod;
  readonly operationId: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** `x-kubernetes-action`: get, list, watch, watchlist, post, put, patch, delete, deletecollection. */
  readonly action?: string;
  /** `x-kubernetes-group-version-kind`. */
  readonly gvk?: GroupVersionKind;
  readonly parameters: readonly ParameterSpec[];
  readonly body?: { readonly schema: ObjectSchema; readonly required: boolean; readonly mediaTypes: readonly string[] };
  readonly responses: readonly ResponseSpec[];
  readonly produces: readonly string[];
}

/** One path with its common parameters and operations. */
export interface PathSpec {
  readonly path: string;
  readonly parameters: readonly ParameterSpec[];
  readonly operations: readonly OperationSpec[];
}

/** The path prefix of a group version: `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The key of a group version among the OpenAPI v3 documents: `api/v1`, `apis/events.k8s.io/v1`. */
export function groupVersionKey(group: string, version: string): string {
  return groupVersionPrefix(group, version).slice(1);
}

const unauthorized: ResponseSpec = { code: '401', description: 'Unauthorized' };
const ok = (schema: ObjectSchema): ResponseSpec => ({ code: '200', description: 'OK', schema });

/** Media types of responses, requests and watch streams. */
interface Media {
  readonly produces: readonly string[];
  readonly consumes: readonly string[];
  readonly watch: readonly string[];
  readonly patch: readonly string[];
}

function media(input: OpenAPIInput): Media {
  const produces = input.produces ?? ['application/json'];
  return {
    produces,
    consumes: input.consumes ?? ['application/json', 'application/yaml'],
    watch: [...produces, ...produces.filter((m) => m === 'application/json').map((m) => `${m};stream=watch`)],
    patch: input.patchTypes ?? defaultPatchTypes,
  };
}

/** The paths and operations of one resource. */
function resourcePaths(gv: OpenAPIGroupVersion, r: OpenAPIResource, input: OpenAPIInput): PathSpec[] {
  const prefix = groupVersionPrefix(gv.group, gv.version);
  const gvName = groupVersionOperationName(gv.group, gv.version, input.groupDomain);
  const tags = [groupVersionTag(gv.group, gv.version, input.groupDomain)];
  const gvk: GroupVersionKind = { group: gv.group, version: gv.version, kind: r.kind };
  const m = media(input);
  const has = (v: OpenAPIResource['verbs'][number]): boolean => r.verbs.includes(v);
  const scope = r.namespaced ? 'Namespaced' : '';
  const a = /^[AEIOU]/.test(r.kind) ? 'an' : 'a';
  const list = (): ObjectSchema => {
    if (!r.listSchema) throw new Error(`resource ${r.resource} lists but has no list schema`);
    return r.listSchema;
  };
  const op = (
    o: Omit<OperationSpec, 'tags' | 'gvk' | 'produces'> & { produces?: readonly string[] },
  ): OperationSpec => ({
    tags,
    gvk,
    produces: m.produces,
    ...o,
  });
  const paths: PathSpec[] = [];
  const pretty = queryParameters.pretty;

  const collection = `${prefix}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
  const collectionOps: OperationSpec[] = [];
  if (has('list')) {
    collectionOps.push(
      op({
        method: 'get',
        operationId: `list${gvName}${scope}${r.kind}`,
        action: 'list',
        description: `list or watch objects of kind ${r.kind}`,
        parameters: has('watch') ? listParameters : listParameters.filter((p) => !isWatchParameter(p)),
        responses: [ok(list()), unauthorized],
        produces: has('watch') ? m.watch : m.produces,
      }),
    );
  }
  if (has('create')) {
    collectionOps.push(
      op({
        method: 'post',
        operationId: `create${gvName}${scope}${r.kind}`,
        action: 'post',
        description: `create ${a} ${r.kind}`,
        parameters: writeParameters,
        body: { schema: r.schema, required: true, mediaTypes: m.consumes },
        responses: [
          ok(r.schema),
          { code: '201', description: 'Created', schema: r.schema },
          { code: '202', description: 'Accepted', schema: r.schema },
          unauthorized,
        ],
      }),
    );
  }
  if (has('deletecollection')) {
    collectionOps.push(
      op({
        method: 'delete',
        operationId: `delete${gvName}Collection${scope}${r.kind}`,
        action: 'deletecollection',
        description: `delete collection of ${r.kind}`,
        parameters: deleteCollectionParameters,
        body: { schema: deleteOptionsSchema, required: false, mediaTypes: m.consumes },
        responses: [ok(statusSchema), unauthorized],
      }),
    );
  }
  if (collectionOps.length > 0) {
    paths.push({
      path: collection,
      parameters: r.namespaced ? [namespaceParameter, pretty] : [pretty],
      operations: collectionOps,
    });
  }

  const item = `${collection}/{name}`;
  const itemOps: OperationSpec[] = [];
  if (has('get')) {
    itemOps.push(
      op({
        method: 'get',
        operationId: `read${gvName}${scope}${r.kind}`,
        action: 'get',
        description: `read the specified ${r.kind}`,
        parameters: [],
        responses: [ok(r.schema), unauthorized],
      }),
    );
  }
  if (has('update')) {
    itemOps.push(
      op({
        method: 'put',
        operationId: `replace${gvName}${scope}${r.kind}`,
        action: 'put',
        description: `replace the specified ${r.kind}`,
        parameters: writeParameters,
        body: { schema: r.schema, required: true, mediaTypes: m.consumes },
        responses: [ok(r.schema), { code: '201', description: 'Created', schema: r.schema }, unauthorized],
      }),
    );
  }
  if (has('delete')) {
    itemOps.push(
      op({
        method: 'delete',
        operationId: `delete${gvName}${scope}${r.kind}`,
        action: 'delete',
        description: `delete ${a} ${r.kind}`,
        parameters: deleteParameters,
        body: { schema: deleteOptionsSchema, required: false, mediaTypes: m.consumes },
        responses: [ok(statusSchema), { code: '202', description: 'Accepted', schema: statusSchema }, unauthorized],
      }),
    );
  }
  if (has('patch')) {
    itemOps.push(
      op({
        method: 'patch',
        operationId: `patch${gvName}${scope}${r.kind}`,
        action: 'patch',
        description: `partially update the specified ${r.kind}`,
        parameters: patchParameters,
        body: { schema: patchSchema, required: true, mediaTypes: m.patch },
        responses: [ok(r.schema), { code: '201', description: 'Created', schema: r.schema }, unauthorized],
      }),
    );
  }
  if (itemOps.length > 0) {
    const params = r.namespaced ? [nameParameter(r.kind), namespaceParameter, pretty] : [nameParameter(r.kind), pretty];
    paths.push({ path: item, parameters: params, operations: itemOps });
  }

  if (r.namespaced && has('list')) {
    paths.push({
      path: `${prefix}/${r.resource}`,
      parameters: [...(has('watch') ? listParameters : listParameters.filter((p) => !isWatchParameter(p))), pretty],
      operations: [
        op({
          method: 'get',
          operationId: `list${gvName}${r.kind}ForAllNamespaces`,
          action: 'list',
          description: `list or watch objects of kind ${r.kind}`,
          parameters: [],
          responses: [ok(list()), unauthorized],
          produces: has('watch') ? m.watch : m.produces,
        }),
      ],
    });
  }

  if (has('watch') && r.legacyWatchItemPath) {
    paths.push({
      path: `${prefix}/watch${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}/{name}`,
      parameters: [...listParameters, nameParameter(r.kind), ...(r.namespaced ? [namespaceParameter] : []), pretty],
      operations: [
        op({
          method: 'get',
          operationId: `watch${gvName}${scope}${r.kind}`,
          action: 'watch',
          parameters: [],
          produces: m.watch,
          description: `watch changes to an object of kind ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
          responses: [ok(watchEventSchema), unauthorized],
        }),
      ],
    });
  }

  if (has('watch') && r.legacyWatchPaths) {
    const watchOp = (operationId: string): OperationSpec =>
      op({
        method: 'get',
        operationId,
        action: 'watchlist',
        parameters: [],
        produces: m.watch,
        description: `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
        responses: [ok(watchEventSchema), unauthorized],
      });
    if (r.namespaced) {
      paths.push({
        path: `${prefix}/watch/${r.resource}`,
        parameters: [...listParameters, pretty],
        operations: [watchOp(`watch${gvName}${r.kind}ListForAllNamespaces`)],
      });
      paths.push({
        path: `${prefix}/watch/namespaces/{namespace}/${r.resource}`,
        parameters: [...listParameters, namespaceParameter, pretty],
        operations: [watchOp(`watch${gvName}Namespaced${r.kind}List`)],
      });
    } else {
      paths.push({
        path: `${prefix}/watch/${r.resource}`,
        parameters: [...listParameters, pretty],
        operations: [watchOp(`watch${gvName}${r.kind}List`)],
      });
    }
  }
  // Kubernetes lists the parameters of a path by name, path and query parameters mixed.
  return paths.map((p) => ({ ...p, parameters: sortParameters(p.parameters) }));
}

const sortParameters = (ps: readonly ParameterSpec[]): ParameterSpec[] =>
  [...ps].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.in < y.in ? -1 : x.in > y.in ? 1 : 0));

const watchOnly = new Set(['allowWatchBookmarks', 'sendInitialEvents', 'watch']);
const isWatchParameter = (p: ParameterSpec): boolean => watchOnly.has(p.name);

/** Every path of a group version, sorted by path. */
export function groupVersionPaths(gv: OpenAPIGroupVersion, input: OpenAPIInput): PathSpec[] {
  const paths: PathSpec[] = [];
  if (gv.discovery) {
    const gvName = groupVersionOperationName(gv.group, gv.version, input.groupDomain);
    paths.push({
      path: groupVersionPrefix(gv.group, gv.version),
      parameters: [],
      operations: [
        {
          method: 'get',
          operationId: `get${gvName}APIResources`,
          description: 'get available resources',
          tags: [groupVersionTag(gv.group, gv.version, input.groupDomain)],
          parameters: [],
          responses: [ok(apiResourceListSchema), unauthorized],
          produces: media(input).produces,
        },
      ],
    });
  }
  for (const r of gv.resources) paths.push(...resourcePaths(gv, r, input));
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p.path)) throw new Error(`path ${p.path} is described twice`);
    seen.add(p.path);
  }
  return paths.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The schemas the operations of some paths name directly (bodies and responses). */
export function pathSchemas(paths: readonly PathSpec[]): ObjectSchema[] {
  const out: ObjectSchema[] = [];
  for (const p of paths) {
    for (const o of p.operations) {
      if (o.body) out.push(o.body.schema);
      for (const r of o.responses) if (r.schema) out.push(r.schema);
    }
  }
  return out;
}

/**
 * The kinds each definition is served as: every resource's object and list kind, and the meta
 * kinds Kubernetes registers in every group version (DeleteOptions, WatchEvent).
 */
export function servedKinds(groupVersions: readonly OpenAPIGroupVersion[]): Map<string, GroupVersionKind[]> {
  const kinds = new Map<string, GroupVersionKind[]>();
  const add = (id: string, gvk: GroupVersionKind): void => {
    const list = kinds.get(id) ?? [];
    if (!list.some((k) => k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind)) list.push(gvk);
    kinds.set(id, list);
  };
  for (const gv of groupVersions) {
    for (const r of gv.resources) {
      add(r.schema.id, { group: gv.group, version: gv.version, kind: r.kind });
      if (r.listSchema)
        add(r.listSchema.id, { group: gv.group, version: gv.version, kind: r.listKind ?? `${r.kind}List` });
    }
  }
  const sorted = [...groupVersions].sort((x, y) => (x.group === y.group ? 0 : x.group < y.group ? -1 : 1));
  for (const gv of sorted) {
    add(deleteOptionsSchema.id, { group: gv.group, version: gv.version, kind: 'DeleteOptions' });
    add(watchEventSchema.id, { group: gv.group, version: gv.version, kind: 'WatchEvent' });
  }
  return kinds;
}
