import type { JsonObject } from './json.js';

/** Extensions of one schema and of its fields. */
interface SchemaExtensions {
  readonly schema?: JsonObject;
  readonly fields?: Readonly<Record<string, JsonObject>>;
}

const atomicList: JsonObject = { 'x-kubernetes-list-type': 'atomic' };

/**
 * The list, map and patch extensions Kubernetes puts on the definitions kevents serves
 * (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`,
 * `x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`), by definition id and field.
 * kubectl's client-side apply reads the patch ones to build strategic merge patches.
 */
const table: Readonly<Record<string, SchemaExtensions>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    fields: {
      finalizers: { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      ownerReferences: {
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      managedFields: atomicList,
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': { schema: { 'x-kubernetes-map-type': 'atomic' } },
  'io.k8s.api.core.v1.ObjectReference': { schema: { 'x-kubernetes-map-type': 'atomic' } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': { fields: { dryRun: atomicList } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails': { fields: { causes: atomicList } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList': { fields: { resources: atomicList } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource': {
    fields: { verbs: atomicList, shortNames: atomicList, categories: atomicList },
  },
  'io.k8s.api.core.v1.NamespaceSpec': { fields: { finalizers: atomicList } },
  'io.k8s.api.core.v1.NamespaceStatus': {
    fields: {
      conditions: {
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
};

/** Kubernetes' extensions on a definition as a whole (empty when it sets none). */
export function schemaExtensions(id: string): JsonObject {
  return table[id]?.schema ?? {};
}

/** Kubernetes' extensions on one field of a definition (empty when it sets none). */
export function fieldExtensions(id: string, field: string): JsonObject {
  return table[id]?.fields?.[field] ?? {};
}
