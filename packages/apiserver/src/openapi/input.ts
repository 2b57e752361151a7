import { namespaceListSchema, namespaceSchema } from '@kevents/api';
import type { OpenAPIGroupVersion, OpenAPIInput, OpenAPIResource } from '@kevents/api';
import type { InstalledView } from '../install/installer.js';

/** core/v1 namespaces: implicit, served read-only (GET one, GET list), no watch. */
const namespaces: OpenAPIResource = {
  resource: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  schema: namespaceSchema,
  listSchema: namespaceListSchema,
  verbs: ['get', 'list'],
};

/**
 * What the server serves, as the OpenAPI generators take it: one group version per installed
 * view (views of one group version share it), core/v1 for namespaces when they are served, and
 * the other resources given.
 * The group domain for operation ids is `groupDomain` (`k8s.io` by default).
 */
export function openAPIInputFromViews(
  views: readonly InstalledView[],
  opts: {
    namespaces: boolean;
    groupDomain?: string;
    /** More resources served outside the installer (the self-subject reviews), by group version. */
    resources?: readonly { group: string; version: string; openAPI: OpenAPIResource }[];
  },
): OpenAPIInput {
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
  for (const v of views) gvOf(v.scope.view.group, v.scope.view.version).resources.push(v.openAPI);
  if (opts.namespaces) gvOf('', 'v1').resources.push(namespaces);
  for (const r of opts.resources ?? []) gvOf(r.group, r.version).resources.push(r.openAPI);
  const groupVersions: OpenAPIGroupVersion[] = [...gvs.values()].map((gv) => ({ ...gv, discovery: true }));
  return { groupVersions, ...(opts.groupDomain ? { groupDomain: opts.groupDomain } : {}) };
}
