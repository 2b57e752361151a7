/** `metav1.OwnerReference` */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** `metav1.ManagedFieldsEntry` */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** `metav1.ObjectMeta`, with Kubernetes' JSON names. Times are `metav1.Time` strings. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** `metav1.ListMeta` */
export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** `metav1.TypeMeta` */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/** Any object with Kubernetes metadata. */
export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
}

/** `metav1.PartialObjectMetadata` (what Tables carry in `rows[].object` by default). */
export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
}
