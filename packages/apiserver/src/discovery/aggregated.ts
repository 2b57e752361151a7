import type { APIResource } from '@kevents/api';
import type { DiscoveryIndex } from './discovery.js';

/** The media type of aggregated discovery, v2 (what kubectl asks for first). */
export const aggregatedDiscoveryV2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
/** The same, v2beta1 (older clients). */
export const aggregatedDiscoveryV2Beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

const scopeOf = (r: APIResource): 'Namespaced' | 'Cluster' => (r.namespaced ? 'Namespaced' : 'Cluster');

function resourceDiscovery(group: string, version: string, r: APIResource): Record<string, unknown> {
  return {
    resource: r.name,
    responseKind: { group, version, kind: r.kind },
    scope: scopeOf(r),
    singularResource: r.singularName,
    verbs: [...r.verbs],
    ...(r.shortNames?.length ? { shortNames: [...r.shortNames] } : {}),
    ...(r.categories?.length ? { categories: [...r.categories] } : {}),
  };
}

/**
 * `/api` or `/apis` as an `APIGroupDiscoveryList` (`apidiscovery.k8s.io/v2` or `v2beta1`): every
 * group with its versions and resources in one document, as kube-apiserver serves it to clients
 * that ask for it in `Accept`.
 */
export function aggregatedDiscovery(index: DiscoveryIndex, core: boolean, version: 'v2' | 'v2beta1'): unknown {
  const byGroup = new Map<string, { version: string; resources: Record<string, unknown>[]; freshness: string }[]>();
  for (const gv of index.groupVersions()) {
    if ((gv.group === '') !== core) continue;
    const versions = byGroup.get(gv.group) ?? [];
    const resources = [...gv.resources]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((r) => resourceDiscovery(gv.group, gv.version, r));
    versions.push({ version: gv.version, resources, freshness: 'Current' });
    byGroup.set(gv.group, versions);
  }
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: [...byGroup].map(([name, versions]) => ({
      metadata: { ...(name ? { name } : {}), creationTimestamp: null },
      versions,
    })),
  };
}
