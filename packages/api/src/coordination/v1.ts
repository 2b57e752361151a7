import type { ObjectMeta, ListMeta } from '../meta/object-meta.js';

/**
 * coordination.k8s.io/v1 `CoordinatedLeaseStrategy`: how the leader of a coordinated lease is
 * picked. Kubernetes defines `OldestEmulationVersion`; other values must be qualified names with
 * a prefix (`example.com/my-strategy`).
 */
export type CoordinatedLeaseStrategy = 'OldestEmulationVersion' | (string & {});

/**
 * coordination.k8s.io/v1 `LeaseSpec`. Every field is a Go pointer: absent means nil, and a
 * present zero (`leaseTransitions: 0`, `holderIdentity: ""`) is kept and sent back. Times are
 * `metav1.MicroTime` strings.
 */
export interface LeaseSpec {
  /** The identity of the holder of the current lease. */
  holderIdentity?: string;
  /** Seconds candidates wait, after the last observed `renewTime`, before forcing acquisition. */
  leaseDurationSeconds?: number;
  /** `metav1.MicroTime` when the current lease was acquired. */
  acquireTime?: string;
  /** `metav1.MicroTime` when the current holder last renewed the lease. */
  renewTime?: string;
  /** The number of transitions of the lease between holders. */
  leaseTransitions?: number;
  /** The strategy for picking the leader under coordinated leader election. */
  strategy?: CoordinatedLeaseStrategy;
  /** A better holder the current holder should give the lease up to (only with `strategy`). */
  preferredHolder?: string;
}

/** coordination.k8s.io/v1 `Lease`. */
export interface Lease {
  apiVersion?: string;
  kind?: 'Lease';
  metadata: ObjectMeta;
  spec: LeaseSpec;
}

/** coordination.k8s.io/v1 `LeaseList`. */
export interface LeaseList {
  apiVersion: string;
  kind: 'LeaseList';
  metadata: ListMeta;
  items: Lease[];
}
