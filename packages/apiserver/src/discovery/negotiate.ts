import { notAcceptable } from '../errors/api-error.js';
import { negotiateRestricted, outputMediaTypes } from '../encoding/negotiate.js';
import type { ClauseConversion, OutputMediaType } from '../encoding/negotiate.js';
import { RecentAccepts } from '../encoding/recent-accepts.js';

/** A discovery answer's media type and whether it is indented (`pretty=1` in its clause). */
export interface DiscoveryNegotiated {
  readonly mediaType: OutputMediaType;
  readonly pretty: boolean;
}

/** Aggregated discovery as negotiated: its version and media type. */
export interface AggregatedNegotiated extends DiscoveryNegotiated {
  readonly version: 'v2' | 'v2beta1';
}

/**
 * Whether `/api` and `/apis` answer aggregated discovery, and how, as kube-apiserver's
 * `WrappedHandler` decides: the first clause (in goautoneg's order) of JSON, YAML or protobuf
 * that names `as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2` (case-sensitive; `v2beta1`
 * too only where it is served: kube 1.33+ leave it out, `AggregatedDiscoveryRemoveBetaType`),
 * clauses without it skipped; undefined (the legacy document) when none does.
 */
export function negotiateAggregated(
  accept: string | undefined,
  servesV2beta1 = false,
): AggregatedNegotiated | undefined {
  if (accept === undefined || accept.length === 0) return undefined;
  const recent = servesV2beta1 ? recentWithV2beta1 : recentV2;
  return recent.get(accept, () => aggregatedClause(accept, servesV2beta1)) ?? undefined;
}

const recentV2 = new RecentAccepts<AggregatedNegotiated>();
const recentWithV2beta1 = new RecentAccepts<AggregatedNegotiated>();
const recentLegacy = new RecentAccepts<DiscoveryNegotiated>();

function aggregatedClause(accept: string, servesV2beta1: boolean): AggregatedNegotiated | undefined {
  const aggregated = (c: ClauseConversion | undefined): boolean =>
    c !== undefined &&
    c.group === 'apidiscovery.k8s.io' &&
    c.kind === 'APIGroupDiscoveryList' &&
    (c.version === 'v2' || (servesV2beta1 && c.version === 'v2beta1'));
  const chosen = negotiateRestricted(accept, aggregated);
  if (!chosen) return undefined;
  return { mediaType: chosen.mediaType, pretty: chosen.pretty, version: chosen.convert!.version as 'v2' | 'v2beta1' };
}

/** The media types a legacy discovery document is written in (kube's server codecs). */
const legacyMediaTypes = outputMediaTypes({ protobuf: true });

/**
 * A legacy discovery document's negotiation (`/api`, `/apis`, `/apis/<group>`,
 * `/api/<version>`, `/apis/<group>/<version>`): `WriteObjectNegotiated` with the default
 * endpoint restrictions over JSON, YAML and protobuf (a clause naming a conversion is skipped).
 * Nothing acceptable is kube's 406 listing the three.
 */
export function negotiateLegacyDiscovery(accept: string | undefined): DiscoveryNegotiated {
  if (accept === undefined || accept.length === 0) return plainJSON;
  const chosen = recentLegacy.get(accept, () => {
    const n = negotiateRestricted(accept, (c) => c === undefined);
    return n && { mediaType: n.mediaType, pretty: n.pretty };
  });
  if (!chosen) throw notAcceptable(legacyMediaTypes);
  return chosen;
}

const plainJSON: DiscoveryNegotiated = { mediaType: 'application/json', pretty: false };
