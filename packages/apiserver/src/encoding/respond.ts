import { randomUUID } from '../request/random-uuid.js';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { encodeProtobuf, goEscapeJSON } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import type { VersionedView } from '../registry/view.js';
import type { Query } from '../request/query.js';
import { q } from '../request/query.js';
import { warningHeaders } from '../warning/recorder.js';
import { tracedAuditId } from '../request/audit-id.js';
import { sendAtTurnEnd } from './turn-end-send.js';
import { chunkStream } from './list-stream.js';
import type { Replied } from './turn-end-send.js';
import { goJsonText, jsonToYaml } from './yaml-output.js';
import { negotiateStatus } from './negotiate.js';
import type { Negotiated } from './negotiate.js';

/** `strconv.ParseBool`'s true values (anything else, false included, reads as false). */
const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** The parts of a request {@link isPretty} reads. */
export interface PrettyRequest {
  /** The request target as sent (its raw query is searched for `pretty` first, as kube does). */
  readonly url?: string;
  readonly query?: unknown;
  readonly headers: { readonly 'user-agent'?: string | undefined };
}

/**
 * kube-apiserver's `isPrettyPrint`: a non-empty `pretty` query parameter decides, as
 * `strconv.ParseBool` reads it (`pretty=yes` is not pretty); without one, curl, Wget and browsers
 * (`User-Agent` starting `curl`, `Wget` or `Mozilla/5.0`) get indented JSON.
 */
export function isPretty(req: PrettyRequest): boolean {
  // kube reads the parameter only when the raw query holds `pretty` (`?%70retty=1` is not read).
  const v = req.url === undefined || req.url.includes('pretty') ? q((req.query ?? {}) as Query, 'pretty') : undefined;
  if (v !== undefined && v !== '') return goTrue.has(v);
  const ua = req.headers['user-agent'];
  return ua !== undefined && (ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0'));
}

/**
 * Serializes as kube's JSON serializer does: compact plus a newline (`json.Encoder`), or indented
 * by two spaces with no newline (`json.MarshalIndent`, for `pretty`), with Go's escapes
 * ({@link goEscapeJSON}).
 */
export const toJSON = (value: unknown, pretty: boolean): string =>
  goEscapeJSON(pretty ? JSON.stringify(value, null, 2) : `${JSON.stringify(value)}\n`);

/**
 * Sends a JSON body with Kubernetes' headers. Warnings become RFC 7234 `Warning: 299 - "..."`
 * headers, deduplicated, bounded and header-safe as kube-apiserver's warning recorder writes them.
 */
export function sendJSON(
  reply: FastifyReply,
  code: number,
  body: unknown,
  pretty: boolean,
  warnings: readonly string[] = [],
): Replied {
  return sendLine(reply, code, toJSON(body, pretty), warnings, 'application/json', 'no-cache, private');
}

/** Sends JSON text (Go's `json.Marshal` of the answer) as YAML, as kube's YAML serializer writes it (`JSONToYAML`). */
export function sendYAML(
  reply: FastifyReply,
  code: number,
  jsonText: string,
  warnings: readonly string[] = [],
): Replied {
  return sendLine(reply, code, jsonToYaml(goJsonText(jsonText)), warnings, 'application/yaml', 'no-cache, private');
}

/**
 * Sends a value in the negotiated media type: JSON (indented for `pretty`) or YAML.
 * `jsonText`, when given, is the value's compact JSON already serialized.
 */
export function sendNegotiated(
  reply: FastifyReply,
  code: number,
  negotiated: Negotiated,
  value: unknown,
  pretty: boolean,
  warnings: readonly string[] = [],
): Replied {
  if (negotiated.mediaType === 'application/yaml') return sendYAML(reply, code, JSON.stringify(value), warnings);
  return sendJSON(reply, code, value, pretty, warnings);
}

/**
 * Sends a Status error as kube's `ErrorNegotiated` does: in the media type the client asks for
 * first (JSON, YAML, or protobuf: `k8s\0` and a runtime.Unknown of apiVersion v1, kind Status);
 * indented JSON when nothing in `Accept` fits. `statusText`, when given, writes the Status's
 * compact JSON (sent for compact JSON instead of serializing `status`).
 */
export function sendStatus(
  reply: FastifyReply,
  req: PrettyRequest & { readonly headers: { readonly accept?: string | undefined } },
  code: number,
  status: unknown,
  statusText?: () => string,
): Replied {
  const negotiated = negotiateStatus(req.headers.accept);
  // Nothing acceptable: kube's `WriteRawJSON`, indented JSON without a newline.
  if (!negotiated) return sendJSON(reply, code, status, true);
  if (negotiated.mediaType === 'application/vnd.kubernetes.protobuf') {
    return sendProtobuf(reply, code, encodeProtobuf(status as Record<string, unknown>, 'meta/v1.Status'));
  }
  const pretty = negotiated.pretty || isPretty(req);
  if (statusText && !pretty && negotiated.mediaType !== 'application/yaml') {
    return sendSerialized(reply, code, goEscapeJSON(statusText()));
  }
  return sendNegotiated(reply, code, negotiated, status, pretty);
}

/** A reply serializer that passes text through: fastify then sends the string as it is (one write, no charset added). */
const asIs = (payload: unknown): string => payload as string;

/** How {@link sendJSONText} sends a text. */
export interface JSONTextOptions {
  /** Warnings for `Warning` headers. */
  readonly warnings?: readonly string[];
  /** Default `application/json`. */
  readonly contentType?: string;
  /** Default `no-cache, private`. */
  readonly cacheControl?: string;
  /** The text already carries Go's escapes (an `ObjectTexts` text, a list of them): it is not scanned again. */
  readonly escaped?: boolean;
}

/**
 * Sends JSON text that is already serialized (one-pass serializers on the hot paths), newline-terminated
 * or not, with Go's escapes ({@link goEscapeJSON}) as kube writes every JSON answer.
 */
export function sendJSONText(reply: FastifyReply, code: number, text: string, options: JSONTextOptions = {}): Replied {
  const line = options.escaped === true ? text : goEscapeJSON(text);
  return sendLine(
    reply,
    code,
    line.endsWith('\n') ? line : `${line}\n`,
    options.warnings ?? [],
    options.contentType ?? 'application/json',
    options.cacheControl ?? 'no-cache, private',
  );
}

/**
 * Sends the compact text of one JSON value as a serializer writes it (it ends with `}`, `]` or a
 * scalar, never a newline), already with Go's escapes ({@link goEscapeJSON}), as
 * {@link sendJSONText} does, appending the newline without reading the text: reading a
 * concatenated string (a view's text with its type meta put in front) makes V8 copy it into one
 * flat string first, and the socket write copies it again.
 */
export function sendSerialized(
  reply: FastifyReply,
  code: number,
  json: string,
  warnings: readonly string[] = [],
): Replied {
  return sendLine(reply, code, `${json}\n`, warnings, 'application/json', 'no-cache, private');
}

/** Sends a value as kube-apiserver's `WriteRawJSON` does (`/version`): indented, with no newline after it. */
export function sendRawJSON(reply: FastifyReply, code: number, value: unknown): FastifyReply {
  return reply
    .code(code)
    .header('content-type', 'application/json')
    .serializer(asIs)
    .send(goEscapeJSON(JSON.stringify(value, null, 2)));
}

/** Sends a text (newline-terminated JSON, YAML, or indented JSON) with Kubernetes' headers, at the end of the loop's turn ({@link sendAtTurnEnd}). */
function sendLine(
  reply: FastifyReply,
  code: number,
  line: string,
  warnings: readonly string[],
  contentType: string,
  cacheControl: string,
): Replied {
  if (warnings.length) {
    const headers = warningHeaders(warnings);
    if (headers.length) reply.header('Warning', headers);
  }
  reply
    .code(code)
    .header('audit-id', tracedAuditId(reply.request) ?? randomUUID())
    .header('content-type', contentType)
    .header('cache-control', cacheControl)
    .serializer(asIs);
  return sendAtTurnEnd(reply, line);
}

/**
 * Sends a JSON body produced by a stream (a large list, see `list-stream.ts`) with the headers
 * of {@link sendJSONText}; the body goes out chunked, as the client reads it.
 */
export function sendJSONStream(reply: FastifyReply, code: number, body: Readable): FastifyReply {
  return reply
    .code(code)
    .header('audit-id', tracedAuditId(reply.request) ?? randomUUID())
    .header('content-type', 'application/json')
    .header('cache-control', 'no-cache, private')
    .send(body);
}

/**
 * Sends a text as it is (no newline added: `pretty` JSON, which kube writes with
 * `json.MarshalIndent` alone), with Kubernetes' headers.
 */
export function sendText(
  reply: FastifyReply,
  code: number,
  text: string,
  contentType: string,
  cacheControl = 'no-cache, private',
): Replied {
  return sendLine(reply, code, text, [], contentType, cacheControl);
}

/** Sends a protobuf body (`k8s\0` and a runtime.Unknown) with Kubernetes' headers. */
export function sendProtobuf(
  reply: FastifyReply,
  code: number,
  body: Buffer | Readable,
  warnings: readonly string[] = [],
  contentType = 'application/vnd.kubernetes.protobuf',
  cacheControl = 'no-cache, private',
): FastifyReply {
  if (warnings.length) {
    const headers = warningHeaders(warnings);
    if (headers.length) reply.header('Warning', headers);
  }
  return reply
    .code(code)
    .header('audit-id', tracedAuditId(reply.request) ?? randomUUID())
    .header('content-type', contentType)
    .header('cache-control', cacheControl)
    .send(body);
}

/** A protobuf answer this long or shorter is sent in one write; a longer one a piece per turn. */
export const protobufWholeBytes = 1024 * 1024;

/**
 * Sends a protobuf answer given in pieces whose bytes, one after another, are the answer (a large
 * list, `encodeListEnvelopeParts`): up to {@link protobufWholeBytes} in one write, as
 * {@link sendProtobuf}; past it with the same headers and `Content-Length`, a piece per turn of
 * the event loop (six 3 MB Events were copied into one buffer in one turn).
 */
export function sendProtobufParts(reply: FastifyReply, code: number, parts: readonly Uint8Array[]): FastifyReply {
  let length = 0;
  for (const p of parts) length += p.length;
  if (length <= protobufWholeBytes) return sendProtobuf(reply, code, Buffer.concat(parts));
  reply.header('content-length', length);
  return sendProtobuf(reply, code, chunkStream(eachOf(parts)));
}

function* eachOf(parts: readonly Uint8Array[]): Generator<Uint8Array, void, undefined> {
  yield* parts;
}

/** Sends a YAML body produced by a stream (a large list, `yamlListChunks`), chunked. */
export function sendYAMLStream(reply: FastifyReply, code: number, body: Readable): FastifyReply {
  return reply
    .code(code)
    .header('audit-id', tracedAuditId(reply.request) ?? randomUUID())
    .header('content-type', 'application/yaml')
    .header('cache-control', 'no-cache, private')
    .send(body);
}

/** Sends one object of a view: one-pass serialization, or the indented form for `?pretty`. */
export function sendObject<T extends KubeObject>(
  reply: FastifyReply,
  code: number,
  view: VersionedView<T>,
  obj: T,
  pretty: boolean,
  warnings: readonly string[] = [],
): Replied {
  if (pretty) return sendJSON(reply, code, view.toExternal(obj), true, warnings);
  const typed = view.withTypeMeta;
  const json =
    typed === undefined ? goEscapeJSON(view.toJSON(obj, true)) : typed(goEscapeJSON(view.toJSON(obj, false)));
  return sendSerialized(reply, code, json, warnings);
}
