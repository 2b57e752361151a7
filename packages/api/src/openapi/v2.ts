import { buildDefinitions, refSchema } from './definitions.js';
import type { OpenAPIInput } from './input.js';
import type { JsonObject } from './json.js';
import { groupVersionPaths, pathSchemas, servedKinds } from './operations.js';
import type { OperationSpec, PathSpec } from './operations.js';
import type { ParameterSpec } from './parameters.js';

function parameterV2(p: ParameterSpec): JsonObject {
  const out: JsonObject = { name: p.name, in: p.in, description: p.description, type: p.type };
  if (p.required) out['required'] = true;
  return out;
}

function operationV2(o: OperationSpec): JsonObject {
  const parameters = o.parameters.map(parameterV2);
  if (o.body)
    parameters.unshift({
      name: 'body',
      in: 'body',
      required: o.body.required,
      schema: refSchema(o.body.schema.id, 'v2'),
    });
  const responses: JsonObject = {};
  for (const r of o.responses)
    responses[r.code] = r.schema
      ? { description: r.description, schema: refSchema(r.schema.id, 'v2') }
      : { description: r.description };
  const out: JsonObject = { description: o.description };
  if (o.body) out['consumes'] = [...o.body.mediaTypes];
  out['produces'] = [...o.produces];
  out['schemes'] = ['https'];
  out['tags'] = [...o.tags];
  out['operationId'] = o.operationId;
  if (parameters.length > 0) out['parameters'] = parameters;
  out['responses'] = responses;
  if (o.action) out['x-kubernetes-action'] = o.action;
  if (o.gvk) out['x-kubernetes-group-version-kind'] = { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version };
  return out;
}

/** Renders paths as a Swagger 2.0 `paths` object. */
export function pathsV2(paths: readonly PathSpec[]): JsonObject {
  const out: JsonObject = {};
  for (const p of paths) {
    const item: JsonObject = {};
    for (const o of p.operations) item[o.method] = operationV2(o);
    if (p.parameters.length > 0) item['parameters'] = p.parameters.map(parameterV2);
    out[p.path] = item;
  }
  return out;
}

/**
 * The Swagger 2.0 document of everything an API server serves (kube-apiserver's
 * `/openapi/v2`): every path with `x-kubernetes-action` and `x-kubernetes-group-version-kind`
 * on its operations, and the definitions of every kind reached from them, generated from the
 * ObjectSchemas, with `x-kubernetes-group-version-kind` on the served kinds.
 */
export function openAPIV2(input: OpenAPIInput): JsonObject {
  const paths = input.groupVersions.flatMap((gv) => groupVersionPaths(gv, input));
  paths.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return {
    swagger: '2.0',
    info: { title: input.title ?? 'Kubernetes', version: input.version ?? 'unversioned' },
    paths: pathsV2(paths),
    definitions: buildDefinitions(pathSchemas(paths), 'v2', servedKinds(input.groupVersions)),
    securityDefinitions: {
      BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' },
    },
    security: [{ BearerToken: [] }],
  };
}
