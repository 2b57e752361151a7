import type { KubeObject } from '@kevents/api';
import { fromBody } from '../body.js';
import { managedFieldsMarker, unpackBody, unpackSharing } from './packed-body.js';
import { sharedManagedFields } from './shared-managed-fields.js';
import { internedText } from './interned-managed-fields.js';
import { decodeDirect, decodeMetadataDirect } from './direct-decode.js';

const quotedMarker = JSON.stringify(managedFieldsMarker);
/** The quoted marker but its opening quote: it starts with `\`, which JSON text seldom holds. */
const markerTail = quotedMarker.slice(1);

/**
 * `text.indexOf(quotedMarker, from)`, searched by its tail: `indexOf` finds the candidates of a
 * pattern by its first character, and a quote opens every few characters of JSON text (1.4–2.7
 * µs for both searches in an Event's text against 0.3–0.4).
 */
function markerIndex(text: string, from: number): number {
  for (let p = text.indexOf(markerTail, from + 1); p >= 0; p = text.indexOf(markerTail, p + 1))
    if (text.charCodeAt(p - 1) === 34) return p - 1;
  return -1;
}

/**
 * A packed body as its object for reading only: `fromBody(unpackBody(packed), rv)`, but with an
 * interned `metadata.managedFields` array (see interned-managed-fields.ts) not parsed from its
 * text: its entries are new objects whose values but the time are the template's, deeply frozen
 * and shared with every object decoded so ({@link sharedManagedFields}). Serializers that keep
 * the texts of frozen values (`fieldsV1`) then write them once. Equal to the parsed object
 * (deep equality, members in the same order) in every case. Read straight from the packed
 * characters ({@link decodeDirect}), or, for the bodies that leaves, from the unpacked text
 * ({@link decodeFromText}).
 */
export function decodeSharing<T extends KubeObject>(packed: string, rv: number): T {
  const direct = decodeDirect(packed, String(rv));
  const metadata = direct?.['metadata'];
  if (direct !== undefined && (metadata === undefined || isPlainObject(metadata))) {
    if (metadata === undefined) direct['metadata'] = { resourceVersion: String(rv) };
    return direct as T;
  }
  return decodeFromText<T>(packed, rv);
}

/**
 * The metadata of a packed body, for reading only, with `resourceVersion` set: read alone
 * ({@link decodeMetadataDirect}), or taken from {@link decodeSharing}'s object where that leaves
 * the body to the text decoder.
 */
export function decodeMetadataSharing<T extends KubeObject>(packed: string, rv: number): Pick<T, 'metadata'> {
  const metadata = decodeMetadataDirect(packed, String(rv));
  if (metadata === undefined) return { metadata: decodeSharing<T>(packed, rv).metadata };
  return { metadata } as Pick<T, 'metadata'>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * {@link decodeSharing} through the body's unpacked text and `JSON.parse`: where the managedFields
 * array is interned elsewhere than in `metadata`, or twice, or the marker's text is found in the
 * body too, it is the parsed object.
 */
export function decodeFromText<T extends KubeObject>(packed: string, rv: number): T {
  const found = unpackSharing(packed);
  if (found === undefined) return fromBody<T>(unpackBody(packed), rv);
  const { text, at, template } = found;
  if (at < 0) return fromBody<T>(text, rv);
  const first = markerIndex(text, 0);
  // JSON.stringify spells a string one way: a second spelling of the marker would be a stored string equal to it.
  if (markerIndex(text, first + 1) >= 0) return fromBody<T>(unpackBody(packed), rv);
  // The body's text with the array's own text back in the marker's place (no second unpack).
  const asText = (): T =>
    fromBody<T>(
      text.slice(0, first) + internedText(packed, at, template!) + text.slice(first + quotedMarker.length),
      rv,
    );
  const entries = sharedManagedFields(packed, at, template!);
  if (entries === undefined) return asText();
  const obj = fromBody<T>(text, rv);
  const metadata = obj.metadata as Record<string, unknown>;
  if (metadata['managedFields'] !== managedFieldsMarker) return asText();
  metadata['managedFields'] = entries;
  return obj;
}
