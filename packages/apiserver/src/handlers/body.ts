import { decodeObject, parseJson } from '@kevents/api';
import { goQuote } from '@kevents/validation';
import type { ObjectSchema } from '@kevents/api';
import { badRequest, unsupportedMediaType } from '../errors/api-error.js';
import { findDuplicateKeys, hasDuplicateKeys } from './json-duplicates.js';
import { excessiveNesting, maxDepthMessage, maxNestingDepth, nestingDepth } from './json-depth.js';
import { readYaml, yamlStrictError, YamlInputError } from './yaml-input.js';
import type { YamlBody } from './yaml-input.js';
import type { FieldValidation } from '../request/query.js';

/** Media types accepted for create and update bodies. */
export const objectMediaTypes = ['application/json', 'application/yaml'] as const;

/** The media type without parameters, lower-cased. */
export const mediaType = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

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

/** A request body parsed, and what strict decoding finds in its text. */
export interface ParsedBody {
  readonly value: unknown;
  /** A JSON body's repeated keys, as dotted paths. */
  readonly duplicates: readonly string[];
  /**
   * Strict decoding errors found before the object is decoded, reported ahead of its unknown
   * fields: a YAML body's repeated keys (`sigs.k8s.io/yaml.YAMLToJSONStrict`'s text), a merge
   * patch's repeated keys.
   */
  readonly strictErrors?: readonly string[];
}

/** Parses a JSON (or YAML) request body; a syntax error is a 400 like Kubernetes'. */
export function parseBody(raw: unknown, contentType: string | undefined): ParsedBody {
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  const type = mediaType(contentType);
  if (type === 'application/yaml') {
    let read: YamlBody;
    try {
      read = readYaml(text);
    } catch (err) {
      if (!(err instanceof YamlInputError)) throw err;
      if (err.kind === 'depth') throw badRequest(parseError(maxDepthMessage(err.char)));
      throw badRequest(`error converting YAML to JSON: yaml: ${err.message}`);
    }
    if (nestingDepth(read.value) > maxNestingDepth) throw badRequest(parseError(maxDepthMessage('{')));
    return {
      value: read.value,
      duplicates: [],
      ...(read.duplicateKeys.length > 0 && { strictErrors: [yamlStrictError(read.duplicateKeys)] }),
    };
  }
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  const deep = excessiveNesting(text);
  if (deep !== undefined) throw badRequest(parseError(maxDepthMessage(deep)));
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw badRequest(parseError((err as Error).message));
  }
  return { value, duplicates: hasDuplicateKeys(text, value) ? findDuplicateKeys(text) : [] };
}

/** Requires one of the object media types (415 otherwise). */
export function requireObjectMediaType(contentType: string | undefined): void {
  const t = mediaType(contentType);
  if (t !== 'application/json' && t !== 'application/yaml' && t !== '') {
    throw unsupportedMediaType(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
  }
}

/** The outcome of decoding a request body into a kind. */
export interface DecodedBody<T> {
  readonly object: T;
  /** `Warning` header values for unknown/duplicate fields (fieldValidation=Warn). */
  readonly warnings: string[];
}

/** How {@link decodeKind} answers a body it cannot decode. */
export interface DecodeKindOptions {
  /**
   * The error for a failure, given the decoder's own words (`detail`) and the 400 message kube's
   * create and update handlers make of them (`message`). By default that 400.
   */
  readonly fail?: (detail: string, message: string) => Error;
}

/**
 * Decodes a parsed body strictly against a kind: wrong apiVersion/kind and type errors are
 * 400s; unknown and duplicate fields are 400 (Strict), warnings (Warn) or dropped (Ignore).
 */
export function decodeKind<T>(
  parsed: ParsedBody,
  schema: ObjectSchema,
  expected: { groupVersion: string; kind: string },
  fieldValidation: FieldValidation,
  options: DecodeKindOptions = {},
): DecodedBody<T> {
  const fail = options.fail ?? ((_detail: string, message: string) => badRequest(message));
  const version = expected.groupVersion.split('/').pop();
  const cannotHandle = (detail: string): Error =>
    fail(detail, `${expected.kind} in version "${version}" cannot be handled as a ${expected.kind}: ${detail}`);
  const v = parsed.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw cannotHandle(
      `json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type ${schema.goType}`,
    );
  }
  const raw = v as Record<string, unknown>;
  // Kubernetes finds the kind by unmarshalling into struct{APIVersion, Kind string}: the first
  // of them that is not a string (in the order of the text) fails that.
  if (goJSONType(raw['kind']) !== undefined || goJSONType(raw['apiVersion']) !== undefined) {
    for (const key of Object.keys(raw)) {
      if (key !== 'kind' && key !== 'apiVersion') continue;
      const t = goJSONType(raw[key]);
      if (t !== undefined) {
        const message = parseError(`json: cannot unmarshal ${t} into Go struct field .${key} of type string`);
        throw fail(message, message);
      }
    }
  }
  // A null reads as absent, as Go leaves a string unchanged on a JSON null.
  if (raw['kind'] != null && raw['kind'] !== '' && raw['kind'] !== expected.kind) {
    const message = `the kind in the data (${String(raw['kind'])}) does not match the expected kind (${expected.kind})`;
    throw fail(message, message);
  }
  if (raw['apiVersion'] != null && raw['apiVersion'] !== '' && raw['apiVersion'] !== expected.groupVersion) {
    const message = `the API version in the data (${String(raw['apiVersion'])}) does not match the expected API version (${expected.groupVersion})`;
    throw fail(message, message);
  }
  const decoded = decodeObject<T>(raw, schema);
  if (decoded.errors.length) throw cannotHandle(decoded.errors[0]!);
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
    throw fail(message, message);
  }
  return { object: decoded.value, warnings: fieldValidation === 'Warn' ? problems : [] };
}
