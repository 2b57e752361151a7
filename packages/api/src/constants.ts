/** The default API group domain; `--group-domain` changes it. */
export const defaultGroupDomain = 'k8s.io';

/** The events API group for a domain: `events.k8s.io`. */
export const eventsGroup = (domain: string = defaultGroupDomain): string => `events.${domain}`;
/** The coordination API group for a domain: `coordination.k8s.io`. */
export const coordinationGroup = (domain: string = defaultGroupDomain): string => `coordination.${domain}`;
/** The config API group for a domain: `apiserver.config.k8s.io`. */
export const apiserverConfigGroup = (domain: string = defaultGroupDomain): string => `apiserver.config.${domain}`;

/** The version kevents serves events under. */
export const eventsVersion = 'v1';
/** Resource name of events in both groups. */
export const eventsResource = 'events';
/** Kubernetes' storage version hash for events (identical in core and events.k8s.io). */
export const eventsStorageVersionHash = 'r2yiGXH7wu8=';

/** The version kevents serves leases under. */
export const leasesVersion = 'v1';
/** Resource name of leases. */
export const leasesResource = 'leases';
/**
 * Kubernetes' storage version hash for coordination.k8s.io/v1 leases, as its discovery publishes
 * it: base64 of the first 8 bytes of sha256(`<group>/<version>/<kind>` of the storage version),
 * here of `coordination.k8s.io/v1/Lease` (events hash `/v1/Event`, their core storage version).
 * It does not follow `--group-domain`: it names the kind kube-apiserver stores.
 */
export const leasesStorageVersionHash = 'gqkMMb/YqFM=';

/** Length limits of new-style events, in UTF-8 bytes (pkg/apis/core/validation/events.go). */
export const eventLimits = {
  reportingInstance: 128,
  action: 128,
  reason: 128,
  note: 1024,
} as const;

/** The largest request body the server reads (kube-apiserver's 3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;
