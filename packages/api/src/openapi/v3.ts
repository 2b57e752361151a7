import { buildDefinitions, refSchema } from './definitions.js';
import type { OpenAPIGroupVersion, OpenAPIInput } from './input.js';
import type { JsonObject } from './json.js';
import { groupVersionKey, groupVersionPaths, pathSchemas, servedKinds } from './operations.js';
import type { OperationSpec, PathSpec } from './operations.js';
import type { ParameterSpec } from './parameters.js';

function parameterV3(p: ParameterSpec): JsonObject {
  const out: JsonObject = { name: p.name, in: p.in, description: p.description };
  if (p.required) out['required'] = true;
  out['schema'] = { type: p.type };
  return out;
}

const content = (mediaTypes: readonly string[], id: string): JsonObject => {
  const out: JsonObject = {};
  for (const m of mediaTypes) out[m] = { schema: refSchema(id, 'v3') };
  return out;
};

function operationV3(o: OperationSpec): JsonObject {
  const out: JsonObject = { tags: [...o.tags], description: o.description, operationId: o.operationId };
  // Operation parameters stay inline: kubectl's fieldValidation check reads their names directly.
  if (o.parameters.length > 0) out['parameters'] = o.parameters.map(parameterV3);
  if (o.body) out['requestBody'] = { content: content(o.body.mediaTypes, o.body.schema.id), required: o.body.required };
  const responses: JsonObject = {};
  for (const r of o.responses) {
    responses[r.code] = r.schema
      ? { description: r.description, content: content(o.produces, r.schema.id) }
      : { description: r.description };
  }
  out['responses'] = responses;
  if (o.action) out['x-kubernetes-action'] = o.action;
  if (o.gvk) out['x-kubernetes-group-version-kind'] = { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version };
  return out;
}

/** Renders paths as an OpenAPI 3.0 `paths` object. */
export function pathsV3(paths: readonly PathSpec[]): JsonObject {
  const out: JsonObject = {};
  for (const p of paths) {
    const item: JsonObject = {};
    for (const o of p.operations) item[o.method] = operationV3(o);
    if (p.parameters.length > 0) item['parameters'] = p.parameters.map(parameterV3);
    out[p.path] = item;
  }
  return out;
}

/** The `/openapi/v3` keys of the served group versions (`api/v1`, `apis/events.k8s.io/v1`), in input order. */
export function openAPIV3GroupVersions(input: OpenAPIInput): string[] {
  return input.groupVersions.map((gv) => groupVersionKey(gv.group, gv.version));
}

const parseGroupVersion = (groupVersion: string): { group: string; version: string } => {
  const key = groupVersion.replace(/^\/?(apis?\/)?/, '');
  const slash = key.lastIndexOf('/');
  return slash < 0 ? { group: '', version: key } : { group: key.slice(0, slash), version: key.slice(slash + 1) };
};

/**
 * The OpenAPI 3.0 document of one served group version (kube-apiserver's
 * `/openapi/v3/apis/<group>/<version>` or `/openapi/v3/api/v1`). `groupVersion` is
 * `events.k8s.io/v1`, `v1`, or a v3 key (`apis/events.k8s.io/v1`, `api/v1`). Throws when the
 * group version is not served.
 */
export function openAPIV3(groupVersion: string, input: OpenAPIInput): JsonObject {
  const { group, version } = parseGroupVersion(groupVersion);
  const gv: OpenAPIGroupVersion | undefined = input.groupVersions.find(
    (g) => g.group === group && g.version === version,
  );
  if (!gv) throw new Error(`group version ${groupVersion} is not served`);
  const paths = groupVersionPaths(gv, input);
  return {
    openapi: '3.0.0',
    info: { title: input.title ?? 'Kubernetes', version: input.version ?? 'unversioned' },
    paths: pathsV3(paths),
    components: {
      schemas: buildDefinitions(pathSchemas(paths), 'v3', servedKinds(input.groupVersions)),
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
    security: [{ BearerToken: [] }],
  };
}
