import { decodeObject, decodeProtobuf, goJsonSyntaxError, parseJson, ProtobufDecodeError } from '@kevents/api';
import { goQuote } from '@kevents/validation';
import type { ObjectSchema, ProtobufType } from '@kevents/api';
import { ApiError, badRequest, tooManyRequests, unsupportedMediaType } from '../errors/api-error.js';
import { findDuplicateKeys, scanJsonText } from './json-duplicates.js';
import { countValuesUpTo, tooManyValues } from '../registry/object-values.js';
import { defaultValueLimits } from '../registry/value-limits.js';
import type { ValueLimits } from '../registry/value-limits.js';
import { excessiveNesting, maxDepthMessage } from './json-depth.js';
import { refuseManyJsonValues, refuseWideJson } from './wide-json.js';
import { readYaml, yamlStrictError, YamlInputError } from './yaml-input.js';
import { readYamlOffLoop, YamlThreadBusyError, YamlThreadOutOfMemoryError, yamlThreadHeapMb } from './yaml-thread.js';
import type { YamlBody } from './yaml-input.js';
import type { FieldValidation } from '../request/query.js';

/** Media types accepted for create and update bodies. */
export const objectMediaTypes = ['application/json', 'application/yaml'] as const;

let lastContentType: string | undefined;
let lastMediaType = '';

/**
 * The media type without parameters, lower-cased. A request's handlers ask several times, and
 * clients send one Content-Type again and again: the last answer is kept.
 */
export function mediaType(contentType: string | undefined): string {
  if (contentType === lastContentType) return lastMediaType;
  const text = contentType ?? '';
  const semicolon = text.indexOf(';');
  const type = (semicolon === -1 ? text : text.slice(0, semicolon)).trim().toLowerCase();
  lastContentType = contentType;
  lastMediaType = type;
  return type;
}

/** The JSON type Go names when a value cannot go into a string (undefined for strings and null). */
const goJSONType = (v: unknown): string | undefined =>
  v === null || v === undefined || typeof v === 'string'
    ? undefined
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'boolean'
          ? 'bool'
          : 'number';

const parseError = (message: string): string => `couldn't get version/kind; json parse error: ${message}`;

/** The Go type `SimpleMetaFactory.Interpret` unmarshals a body into, as reflect prints it. */
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** A request body parsed, and what strict decoding finds in its text. */
export interface ParsedBody {
  readonly value: unknown;
  /** The body's text, as sent. */
  readonly text: string;
  /** A JSON body's repeated keys, as dotted paths. */
  readonly duplicates: readonly string[];
  /**
   * The value's object members and array elements at every depth, when the parse counted them
   * (a JSON body's); {@link decodeKind} counts them otherwise.
   */
  readonly values?: number;
  /**
   * Strict decoding errors found before the object is decoded, reported ahead of its unknown
   * fields: a YAML body's repeated keys (`sigs.k8s.io/yaml.YAMLToJSONStrict`'s text), a merge
   * patch's repeated keys.
   */
  readonly strictErrors?: readonly string[];
}

/** How a create or update names a body it cannot read: the kind the handler decodes into. */
export interface UnrecognizedBodyOptions {
  /**
   * The kind of the object the body should hold. When set, a body whose kind cannot be found
   * (a syntax error, or a value that is not an object) is answered as kube's create and update
   * handlers answer it (`transformDecodeError`): `the object provided is unrecognized (must be of
   * type Event): <why> (<the body's first 30 bytes>)`. Without it, `<why>` alone.
   */
  readonly unrecognizedKind?: string;
}

/** How a body is read and decoded: {@link UnrecognizedBodyOptions} and the server's value bounds. */
export interface BodyReadOptions extends UnrecognizedBodyOptions {
  /** The bounds on the values a body may spell or hold (413 past them); default `defaultValueLimits`. */
  readonly valueLimits?: ValueLimits;
}

/**
 * kube's `summarizeData(body, 30)`: `<empty>`, a body that starts with `{` as text, anything
 * else in hex; longer than 30 bytes cut there with ` ...`.
 */
export function summarizeBody(text: string | Uint8Array, maxLength = 30): string {
  const bytes =
    typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  if (bytes.length === 0) return '<empty>';
  const cut = bytes.length > maxLength;
  const head = cut ? bytes.subarray(0, maxLength) : bytes;
  const shown = bytes[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return cut ? `${shown} ...` : shown;
}

/** The 400 for a body whose kind cannot be found, in the words {@link UnrecognizedBodyOptions} describes. */
function unreadable(why: string, text: string, options: UnrecognizedBodyOptions): Error {
  const kind = options.unrecognizedKind;
  if (kind === undefined) return badRequest(why);
  return badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why} (${summarizeBody(text)})`);
}

/**
 * Parses a JSON (or YAML) request body; a syntax error is a 400 in Go's words
 * (`couldn't get version/kind; json parse error: unexpected end of JSON input`), as kube reads it.
 */
export function parseBody(raw: unknown, contentType: string | undefined, options: BodyReadOptions = {}): ParsedBody {
  const text = bodyText(raw);
  if (mediaType(contentType) === 'application/yaml') {
    let read: YamlBody;
    try {
      read = readYaml(text);
    } catch (err) {
      throw yamlFailure(err, text, options);
    }
    return yamlParsed(read, text);
  }
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  const deep = excessiveNesting(text);
  if (deep !== undefined) throw unreadable(parseError(maxDepthMessage(deep)), text, options);
  const limits = options.valueLimits ?? defaultValueLimits;
  const names = refuseWideJson(text, limits);
  refuseManyJsonValues(text, limits);
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw unreadable(parseError(goJsonSyntaxError(text) ?? (err as Error).message), text, options);
  }
  const scan = scanJsonText(text, value, names);
  return { value, text, values: scan.values, duplicates: scan.duplicates ? findDuplicateKeys(text) : [] };
}

/**
 * {@link parseBody} that reads a large YAML body on the YAML thread (yaml-thread.ts), so that it
 * never holds the event loop; what it answers is the same.
 */
export async function parseBodyOffLoop(
  raw: unknown,
  contentType: string | undefined,
  options: BodyReadOptions = {},
): Promise<ParsedBody> {
  if (mediaType(contentType) !== 'application/yaml') return parseBody(raw, contentType, options);
  const text = bodyText(raw);
  let read: YamlBody;
  try {
    read = await readYamlOffLoop(text, options.valueLimits);
  } catch (err) {
    throw yamlFailure(err, text, options);
  }
  return yamlParsed(read, text);
}

/** A request body as text: a string as it is, a buffer as UTF-8, anything else empty. */
export const bodyText = (raw: unknown): string =>
  typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';

/** The 400 for a YAML body {@link readYaml} refused. */
function yamlFailure(err: unknown, text: string, options: UnrecognizedBodyOptions): unknown {
  if (err instanceof YamlThreadBusyError) return yamlBusy();
  if (err instanceof YamlThreadOutOfMemoryError) return yamlTooLarge();
  if (!(err instanceof YamlInputError)) return err;
  if (err.kind === 'depth') return unreadable(parseError(maxDepthMessage(err.char)), text, options);
  // kube's serializer converts with `yaml.YAMLToJSON`, whose errors are goyaml's own.
  return unreadable(err.message, text, options);
}

function yamlParsed(read: YamlBody, text: string): ParsedBody {
  return {
    value: read.value,
    text,
    duplicates: [],
    ...(read.duplicateKeys.length > 0 && { strictErrors: [yamlStrictError(read.duplicateKeys)] }),
  };
}

/** The 413 for a YAML body the YAML thread runs out of heap reading. */
export const yamlTooLarge = (): Error =>
  new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: reading the YAML body needs more than ${yamlThreadHeapMb} MiB; send it as JSON`,
  );

/** The 429 for a large YAML body while the YAML thread has as many waiting as it takes. */
export const yamlBusy = (): Error => tooManyRequests('Too many YAML bodies are being read, please try again later.', 1);

/**
 * Requires one of the object media types (415 otherwise): JSON, YAML, and protobuf where the
 * kind has protobuf messages. The 415 lists kube's three either way (kube lists them for custom
 * resources too).
 */
export function requireObjectMediaType(contentType: string | undefined, protobuf = false): void {
  const t = mediaType(contentType);
  if (t === 'application/json' || t === 'application/yaml' || t === '') return;
  if (protobuf && t === 'application/vnd.kubernetes.protobuf') return;
  throw unsupportedMediaType(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
}

/**
 * Reads a protobuf body (`k8s\0` and a runtime.Unknown) into the JSON form of `type`; a missing
 * kind or apiVersion is the expected one (kube decodes with the handler's kind as the default).
 * A body it cannot read is kube's `transformDecodeError` 400 with Go's protobuf error.
 */
export function parseProtobufBody(
  raw: unknown,
  type: ProtobufType,
  expected: { readonly groupVersion: string; readonly kind: string },
  options: BodyReadOptions = {},
): ParsedBody {
  const limits = options.valueLimits ?? defaultValueLimits;
  const bytes: Uint8Array = Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === 'string' ? raw : '', 'latin1');
  let value: Record<string, unknown>;
  try {
    value = decodeProtobuf(bytes, type, { maxFields: limits.bodyValues });
  } catch (err) {
    if (!(err instanceof ProtobufDecodeError)) throw err;
    if (err.code === 'TooManyFields') throw tooManyValues(limits.objectValues);
    const kind = options.unrecognizedKind;
    if (kind === undefined) throw badRequest(err.message);
    throw badRequest(
      `the object provided is unrecognized (must be of type ${kind}): ${err.message} (${summarizeBody(bytes)})`,
    );
  }
  value['kind'] ??= expected.kind;
  value['apiVersion'] ??= expected.groupVersion;
  return { value, text: '', duplicates: [] };
}

/** The outcome of decoding a request body into a kind. */
export interface DecodedBody<T> {
  readonly object: T;
  /** `Warning` header values for unknown/duplicate fields (fieldValidation=Warn). */
  readonly warnings: string[];
}

/** How {@link decodeKind} answers a body it cannot decode. */
export interface DecodeKindOptions extends BodyReadOptions {
  /**
   * The error for a failure, given the decoder's own words (`detail`) and the 400 message kube's
   * create and update handlers make of them (`message`). By default that 400.
   */
  readonly fail?: (detail: string, message: string) => Error;
}

/**
 * Decodes a parsed body strictly against a kind: a body of more than `valueLimits.bodyValues` values
 * is a 413; wrong apiVersion/kind and type errors are 400s; unknown and duplicate fields are 400
 * (Strict), warnings (Warn) or dropped (Ignore).
 */
export function decodeKind<T>(
  parsed: ParsedBody,
  schema: ObjectSchema,
  expected: { groupVersion: string; kind: string },
  fieldValidation: FieldValidation,
  options: DecodeKindOptions = {},
): DecodedBody<T> {
  // Kubernetes finds the kind first (`SimpleMetaFactory.Interpret`): it unmarshals the body into
  // struct{APIVersion, Kind string}, which fails for anything but an object or null, and for an
  // apiVersion or kind that is not a string (the first in the text deciding).
  // A null body decodes as an empty object, as Go's decoder leaves a struct unchanged on null.
  const v = parsed.value === null ? {} : parsed.value;
  if (typeof v !== 'object' || Array.isArray(v) || v === null) {
    const t = goJSONType(v) ?? 'string';
    throw uninterpretable(
      parsed,
      options,
      parseError(`json: cannot unmarshal ${t} into Go value of type ${findKindType}`),
    );
  }
  const raw = v as Record<string, unknown>;
  // Before anything walks the object: what it costs the event loop grows with its values.
  const limits = options.valueLimits ?? defaultValueLimits;
  if ((parsed.values ?? countValuesUpTo(raw, limits.bodyValues)) > limits.bodyValues) {
    throw tooManyValues(limits.objectValues);
  }
  if (goJSONType(raw['kind']) !== undefined || goJSONType(raw['apiVersion']) !== undefined) {
    for (const key of Object.keys(raw)) {
      if (key !== 'kind' && key !== 'apiVersion') continue;
      const t = goJSONType(raw[key]);
      if (t === undefined) continue;
      const why = `json: cannot unmarshal ${t} into Go struct field .${key} of type string`;
      throw uninterpretable(parsed, options, parseError(why));
    }
  }
  const apiVersion = raw['apiVersion'];
  // More than one `/` (no array made: this runs on every create).
  if (typeof apiVersion === 'string' && apiVersion.indexOf('/') !== apiVersion.lastIndexOf('/')) {
    // `schema.ParseGroupVersion`'s error, returned by Interpret unwrapped.
    throw uninterpretable(parsed, options, `unexpected GroupVersion string: ${apiVersion}`);
  }
  // A null reads as absent, as Go leaves a string unchanged on a JSON null.
  if (raw['kind'] != null && raw['kind'] !== '' && raw['kind'] !== expected.kind) {
    const message = `the kind in the data (${String(raw['kind'])}) does not match the expected kind (${expected.kind})`;
    throw decodeFailure(options, message, message);
  }
  if (raw['apiVersion'] != null && raw['apiVersion'] !== '' && raw['apiVersion'] !== expected.groupVersion) {
    const message = `the API version in the data (${String(raw['apiVersion'])}) does not match the expected API version (${expected.groupVersion})`;
    throw decodeFailure(options, message, message);
  }
  const decoded = decodeObject<T>(raw, schema);
  if (decoded.errors.length) {
    const detail = decoded.errors[0]!;
    const version = expected.groupVersion.split('/').pop();
    const message = `${expected.kind} in version "${version}" cannot be handled as a ${expected.kind}: ${detail}`;
    throw decodeFailure(options, detail, message);
  }
  const early = parsed.strictErrors ?? [];
  if (decoded.unknownFields.length === 0 && parsed.duplicates.length === 0 && early.length === 0)
    return { object: decoded.value, warnings: [] };
  const problems = [
    ...early,
    ...decoded.unknownFields.map((f) => `unknown field ${goQuote(f)}`),
    ...parsed.duplicates.map((f) => `duplicate field ${goQuote(f)}`),
  ];
  if (fieldValidation === 'Strict') {
    const message = `strict decoding error: ${problems.join(', ')}`;
    throw decodeFailure(options, message, message);
  }
  return { object: decoded.value, warnings: fieldValidation === 'Warn' ? problems : [] };
}

/** A decoding failure: the caller's error for it, or the 400 kube's create and update handlers give. */
function decodeFailure(options: DecodeKindOptions, detail: string, message: string): Error {
  return options.fail ? options.fail(detail, message) : badRequest(message);
}

/** A body whose kind cannot be found: the caller's error for it, or {@link unreadable}'s. */
function uninterpretable(parsed: ParsedBody, options: DecodeKindOptions, detail: string): Error {
  return options.fail ? options.fail(detail, detail) : unreadable(detail, parsed.text, options);
}
