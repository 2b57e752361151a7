import { createHash } from 'node:crypto';
import { eventToCore, parseRFC3339, type CoreEvent, type Event } from '@kevents/api';

/** The label every mirrored event carries: the name of the source cluster. */
export const clusterLabel = 'kevents.io/cluster';
/** The annotation with the uid of the event in its source cluster. */
export const sourceUidAnnotation = 'kevents.io/source-uid';
/** The annotation with the resourceVersion of the source event this copy was made from. */
export const sourceRvAnnotation = 'kevents.io/source-resource-version';

/** The informer index of kevents' events by `<cluster>/<source uid>` (mirrored events only). */
export const mirrorIndex = 'mirror-source';

/** The {@link mirrorIndex} values of an event: `[<cluster>/<source uid>]`, or none when it is not a mirrored one. */
export function mirrorIndexValues(e: Event): string[] {
  const cluster = e.metadata.labels?.[clusterLabel];
  const uid = e.metadata.annotations?.[sourceUidAnnotation];
  return cluster && uid ? [`${cluster}/${uid}`] : [];
}

/** True when `e` is a mirrored copy (it carries the cluster label). */
export function isMirrored(e: Event): boolean {
  return e.metadata.labels?.[clusterLabel] !== undefined;
}

/**
 * The names a source event may have in kevents, in order: its own name, then
 * `<name>.<cluster>.<first 8 characters of the source uid>` when the name is taken in kevents by
 * another event (another cluster's, an earlier event of this cluster with the same name, or one
 * written to kevents directly). Both are fixed by the source event alone, so a restarted mirror
 * finds the copy it made; the second is unique per source event. The name part is shortened so
 * that the result stays within 253 characters.
 */
export function candidateNames(cluster: string, name: string, sourceUid: string): [string, string] {
  const suffix = `.${cluster}.${sourceUid.replace(/[^a-z0-9]/g, '').slice(0, 8)}`;
  return [name, name.slice(0, 253 - suffix.length) + suffix];
}

/**
 * The kevents copy of a source event: the source's namespace, name (or `name`), labels,
 * annotations and every event field, plus the cluster label and the source annotations. Server-set
 * metadata (uid, resourceVersion, creationTimestamp, managedFields), owner references and
 * finalizers are not copied: they belong to the source cluster.
 */
export function mirrorOf(src: Event, cluster: string, name = src.metadata.name!): Event {
  const { metadata, apiVersion: _a, kind: _k, ...fields } = src;
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: metadata.namespace,
      labels: { ...metadata.labels, [clusterLabel]: cluster },
      annotations: {
        ...metadata.annotations,
        [sourceUidAnnotation]: metadata.uid!,
        [sourceRvAnnotation]: metadata.resourceVersion!,
      },
    },
    ...fields,
  };
}

/**
 * Kubelet-style (legacy) events have no `eventTime`: events.k8s.io/v1 refuses them as new events
 * and refuses changes to their note, so they are written through core v1, which applies only the
 * legacy validation to creates and updates, as for the kubelet that wrote them.
 */
export function isLegacy(e: Event): boolean {
  return e.eventTime === null || e.eventTime === undefined || e.eventTime === '';
}

/** The core v1 form of an events.k8s.io/v1 Event (for writes through `/api/v1`). */
export function toCoreV1(e: Event): CoreEvent {
  return { apiVersion: 'v1', kind: 'Event', ...eventToCore(e) } as CoreEvent;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A canonical form for comparing a copy with its source: absent, null, '' and {} are the same
 * (the JSON shapes of the two APIs and servers differ there), and times compare by instant
 * (to the microsecond), not by spelling.
 */
function canonical(v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'string' && rfc3339.test(v)) {
    const i = parseRFC3339(v);
    if (i) return `t:${i.seconds}.${i.micros}`;
  }
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const c = canonical((v as Record<string, unknown>)[k]);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/**
 * What a copy says about its source, as one string: every event field, the labels and the
 * annotations except `kevents.io/source-resource-version` (a new source resourceVersion with the
 * same content is not a change worth a write).
 */
export function mirroredContent(e: Event): string {
  const { metadata, apiVersion: _a, kind: _k, ...fields } = e;
  const { [sourceRvAnnotation]: _rv, ...annotations } = metadata.annotations ?? {};
  return JSON.stringify(canonical({ fields, labels: metadata.labels, annotations }) ?? null);
}

/** A short digest of {@link mirroredContent} (what the controller's cache keeps of a copy). */
export function contentDigest(e: Event): string {
  return createHash('sha256').update(mirroredContent(e)).digest('base64url').slice(0, 22);
}

/**
 * Compares two resourceVersions of one source: numerically when both are decimal integers (etcd's
 * and kevents' are), else only equality is known (0 when equal, NaN otherwise).
 */
export function compareResourceVersions(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a && b && /^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number.NaN;
}
