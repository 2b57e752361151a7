import { namespaceListSchema, namespaceSchema } from '@kevents/api';
import type { OpenAPIGroupVersion, OpenAPIInput, OpenAPIResource, OpenAPIVerb } from '@kevents/api';
import type { ResourceView } from '../registry/resource-view.js';

/** The verbs every events view serves (the routes in server/app.ts). */
const eventVerbs: readonly OpenAPIVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** core/v1 namespaces: implicit, served read-only (GET one, GET list), no watch. */
const namespaces: OpenAPIResource = {
  resource: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  schema: namespaceSchema,
  listSchema: namespaceListSchema,
  verbs: ['get', 'list'],
};

const viewResource = (view: ResourceView): OpenAPIResource => ({
  resource: view.resource,
  kind: view.kind,
  listKind: view.listKind,
  namespaced: true,
  schema: view.schema,
  listSchema: view.listSchema,
  verbs: eventVerbs,
  legacyWatchPaths: true,
});

/**
 * What the server serves, as the OpenAPI generators take it: one group version per view
 * (views of one group version share it), and core/v1 always, for namespaces. The group
 * domain for operation ids is read off the first non-core group (`events.<domain>`).
 */
export function openAPIInputFromViews(views: readonly ResourceView[]): OpenAPIInput {
  const gvs = new Map<string, { group: string; version: string; resources: OpenAPIResource[] }>();
  const gvOf = (group: string, version: string) => {
    const key = `${group}/${version}`;
    let gv = gvs.get(key);
    if (!gv) {
      gv = { group, version, resources: [] };
      gvs.set(key, gv);
    }
    return gv;
  };
  for (const view of views) gvOf(view.group, view.version).resources.push(viewResource(view));
  gvOf('', 'v1').resources.push(namespaces);
  const named = views.find((v) => v.group !== '');
  const groupDomain = named ? named.group.slice(named.group.indexOf('.') + 1) : undefined;
  const groupVersions: OpenAPIGroupVersion[] = [...gvs.values()].map((gv) => ({ ...gv, discovery: true }));
  return { groupVersions, ...(groupDomain ? { groupDomain } : {}) };
}
