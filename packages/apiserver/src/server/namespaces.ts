import { createHash } from 'node:crypto';
import type { Namespace, NamespaceList } from '@kevents/api';
import type { Storage } from '@kevents/storage';

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The default seed of implicit namespaces' uids (what kevents-apiserver has always used). */
export const defaultNamespaceUIDSeed = 'kevents';

/**
 * A stable uid for an implicit namespace: a name-based (version 5 style) UUID of
 * `<seed>/namespace/<name>`, so that two servers with the same seed agree on it.
 */
export const namespaceUID = (name: string, seed: string = defaultNamespaceUIDSeed): string => {
  const h = createHash('sha1').update(`${seed}/namespace/${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * Namespaces are implicit: any valid DNS-1123 label names an Active namespace.
 * Returns undefined for names that cannot be namespaces (the caller answers 404).
 */
export function synthesizeNamespace(
  name: string,
  createdAt: string,
  seed: string = defaultNamespaceUIDSeed,
): Namespace | undefined {
  if (name.length > 63 || !dns1123Label.test(name)) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: namespaceUID(name, seed),
      resourceVersion: '1',
      creationTimestamp: createdAt,
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** Lists `default`, `kube-system` and every namespace that holds an object of the given (namespaced) resources. */
export async function listNamespaces(
  storage: Storage,
  resources: readonly string[],
  createdAt: string,
  seed: string = defaultNamespaceUIDSeed,
): Promise<NamespaceList> {
  const names = new Set(['default', 'kube-system']);
  let resourceVersion = '';
  for (const resource of resources) {
    const page = await storage.list({ resource });
    for (const o of page.items) if (o.metadata.namespace) names.add(o.metadata.namespace);
    resourceVersion = page.resourceVersion;
  }
  const items = [...names]
    .sort()
    .map((n) => synthesizeNamespace(n, createdAt, seed)!)
    .map(({ apiVersion: _a, kind: _k, ...rest }) => rest as Namespace);
  return { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion }, items };
}
