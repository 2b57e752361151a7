import { notAcceptable } from '../errors/api-error.js';
import { clauseMatches, parseAccept } from './accept.js';
import type { AcceptClause } from './accept.js';
import { RecentAccepts } from './recent-accepts.js';

/** The versions of `meta.k8s.io` a Table or PartialObjectMetadata can be asked in. */
export type MetaVersion = 'v1' | 'v1beta1';

/**
 * What a response carries: the object(s) as served, or one of kube's conversions asked for with
 * `;as=<kind>;g=meta.k8s.io;v=<version>` (a Table, or the objects' metadata alone).
 */
export type Representation =
  | { readonly as: 'object' }
  | { readonly as: 'Table'; readonly version: MetaVersion }
  | { readonly as: 'PartialObjectMetadata'; readonly version: MetaVersion }
  | { readonly as: 'PartialObjectMetadataList'; readonly version: MetaVersion };

/** The media types responses are written in. */
export type OutputMediaType = 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf';

/** The outcome of output negotiation: a media type, a representation, and the `pretty=1` parameter. */
export interface Negotiated {
  readonly mediaType: OutputMediaType;
  readonly representation: Representation;
  readonly pretty: boolean;
}

interface Serializer {
  readonly mediaType: OutputMediaType;
  /** It has a stream serializer (watches). */
  readonly streams: boolean;
}

/** The serializers in kube's order; JSON and protobuf stream (watches), YAML does not. */
const allSerializers: readonly Serializer[] = [
  { mediaType: 'application/json', streams: true },
  { mediaType: 'application/yaml', streams: false },
  { mediaType: 'application/vnd.kubernetes.protobuf', streams: true },
];

/**
 * What a resource can be written in: every serializer when its kinds have protobuf messages
 * (kevents' Events and Leases), else JSON and YAML (as kube serves custom resources).
 */
export interface OutputFormats {
  readonly protobuf: boolean;
}

const textSerializers = allSerializers.filter((s) => s.mediaType !== 'application/vnd.kubernetes.protobuf');
const serializersOf = (formats: OutputFormats): readonly Serializer[] =>
  formats.protobuf ? allSerializers : textSerializers;

/** Media types a 406 lists: kube's `MediaTypesForSerializer` over what a resource is written in. */
export const outputMediaTypes = (formats: OutputFormats = noProtobuf): readonly string[] =>
  serializersOf(formats).map((s) => s.mediaType);
export const streamMediaTypes = (formats: OutputFormats = noProtobuf): readonly string[] =>
  serializersOf(formats)
    .filter((s) => s.streams)
    .map((s) => `${s.mediaType};stream=watch`);

const noProtobuf: OutputFormats = { protobuf: false };

const objectRepresentation: Representation = { as: 'object' };
const plainJSON: Negotiated = { mediaType: 'application/json', representation: objectRepresentation, pretty: false };

/**
 * `acceptMediaTypeOptions` with `RequestScope`'s restrictions: `as`/`g`/`v` name a conversion,
 * which must be a Table (JSON or YAML only) or PartialObjectMetadata(List) of `meta.k8s.io`
 * v1 or v1beta1; `stream` must be `watch` on a streaming serializer; `sv` must be `v1`.
 * Undefined when the clause cannot be served with this serializer.
 */
function options(clause: AcceptClause, serializer: Serializer): Negotiated | undefined {
  const p = clause.params;
  const stream = p.get('stream');
  if (stream !== undefined && stream !== '' && (!serializer.streams || stream !== 'watch')) return undefined;
  const sv = p.get('sv');
  if (sv !== undefined && sv !== '' && sv !== 'v1') return undefined;
  const pretty = p.get('pretty') === '1';
  if (!p.has('as') && !p.has('g') && !p.has('v')) {
    return { mediaType: serializer.mediaType, representation: objectRepresentation, pretty };
  }
  const kind = p.get('as') ?? '';
  const version = p.get('v') ?? '';
  if (p.get('g') !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  const protobuf = serializer.mediaType === 'application/vnd.kubernetes.protobuf';
  // kube writes Tables in JSON and YAML only.
  if (kind === 'Table' && protobuf) return undefined;
  if (kind === 'Table' || kind === 'PartialObjectMetadata' || kind === 'PartialObjectMetadataList') {
    return { mediaType: serializer.mediaType, representation: { as: kind, version }, pretty };
  }
  return undefined;
}

/** `NegotiateMediaTypeOptions`: the first clause (in goautoneg's order) a serializer can serve. */
function negotiateClauses(accept: string | undefined, formats: OutputFormats): Negotiated | undefined {
  if (accept === undefined || accept.length === 0) return plainJSON;
  for (const clause of parseAccept(accept)) {
    for (const serializer of serializersOf(formats)) {
      if (!clauseMatches(clause, serializer.mediaType)) continue;
      const chosen = options(clause, serializer);
      if (chosen) return chosen;
    }
  }
  return undefined;
}

/**
 * Negotiates a response as kube-apiserver's `NegotiateOutputMediaType` does for a resource
 * request: JSON, YAML or (for a resource with protobuf messages) protobuf, the object or a
 * conversion, in the order goautoneg sorts the `Accept` header (no header is JSON). Nothing
 * acceptable is a 406 listing the media types the resource is written in.
 */
export function negotiateOutput(accept: string | undefined, formats: OutputFormats = noProtobuf): Negotiated {
  if (accept === undefined || accept.length === 0) return plainJSON;
  const recent = formats.protobuf ? recentWithProtobuf : recentText;
  const chosen = recent.get(accept, () => negotiateClauses(accept, formats));
  if (!chosen) throw notAcceptable(outputMediaTypes(formats));
  return chosen;
}

const recentText = new RecentAccepts<Negotiated>();
const recentWithProtobuf = new RecentAccepts<Negotiated>();

/** The conversion a clause asks for (`as`, `g`, `v`; empty when not given), as kube's `Convert`. */
export interface ClauseConversion {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A media type chosen by {@link negotiateRestricted}, with the conversion its clause names. */
export interface RestrictedNegotiated {
  readonly mediaType: OutputMediaType;
  readonly pretty: boolean;
  readonly convert: ClauseConversion | undefined;
}

/**
 * `NegotiateMediaTypeOptions` over kube's three serializers (JSON, YAML, protobuf) with endpoint
 * restrictions that allow no server version (`sv`), `stream=watch` on a streaming serializer,
 * and the conversions `allowsConvert` accepts (undefined: the clause names none): kube's
 * `DefaultEndpointRestrictions` (no conversion) and discovery's (aggregated discovery only).
 * Undefined when no clause fits; no header is JSON without a conversion.
 */
export function negotiateRestricted(
  accept: string | undefined,
  allowsConvert: (convert: ClauseConversion | undefined) => boolean,
): RestrictedNegotiated | undefined {
  if (accept === undefined || accept.length === 0) {
    return allowsConvert(undefined) ? { mediaType: 'application/json', pretty: false, convert: undefined } : undefined;
  }
  for (const clause of parseAccept(accept)) {
    for (const serializer of allSerializers) {
      if (!clauseMatches(clause, serializer.mediaType)) continue;
      const p = clause.params;
      const stream = p.get('stream');
      if (stream !== undefined && stream !== '' && (!serializer.streams || stream !== 'watch')) continue;
      if ((p.get('sv') ?? '') !== '') continue;
      const convert =
        p.has('as') || p.has('g') || p.has('v')
          ? { group: p.get('g') ?? '', version: p.get('v') ?? '', kind: p.get('as') ?? '' }
          : undefined;
      if (!allowsConvert(convert)) continue;
      return { mediaType: serializer.mediaType, pretty: p.get('pretty') === '1', convert };
    }
  }
  return undefined;
}

const noConversion = (convert: ClauseConversion | undefined): boolean => convert === undefined;

/**
 * How a Status error is written (`ErrorNegotiated`): negotiated over every serializer (JSON, YAML
 * and protobuf: kube-apiserver's codecs, and a custom resource's serializer too, which offers
 * protobuf for Status) with kube's default endpoint restrictions (no conversions, no `sv`,
 * `stream=watch` on a streaming serializer); undefined when nothing is acceptable (the error is
 * then written as `WriteRawJSON` writes it: an error is never hidden behind a 406).
 */
export function negotiateStatus(accept: string | undefined): Negotiated | undefined {
  if (accept === undefined || accept.length === 0) return plainJSON;
  const chosen = negotiateRestricted(accept, noConversion);
  return chosen && { mediaType: chosen.mediaType, representation: objectRepresentation, pretty: chosen.pretty };
}

/**
 * A watch's negotiation: {@link negotiateOutput}, then the chosen serializer must stream
 * (`NegotiateOutputMediaTypeStream`): YAML chosen is a 406 listing the watch media types.
 */
export function negotiateWatch(accept: string | undefined, formats: OutputFormats = noProtobuf): Negotiated {
  const chosen = negotiateOutput(accept, formats);
  if (chosen.mediaType === 'application/yaml') throw notAcceptable(streamMediaTypes(formats));
  return chosen;
}
