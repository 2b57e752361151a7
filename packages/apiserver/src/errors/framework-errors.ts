import type { StatusReason } from '@kevents/api';
import { ApiError, badRequest, pathNotFound } from './api-error.js';

/**
 * The most bytes a path parameter (a namespace or a name) may have before the router gives up
 * on the route. Set past any URL Node reads (16 KiB of request line and headers), so a long name
 * is never a router error: it reaches the handler, which answers as Kubernetes does (404 for a
 * name that does not exist, 422 for a name that is too long to create).
 */
export const maxPathParamBytes = 32 * 1024;

/** Reasons Kubernetes gives the codes a client error can carry. */
const reasons: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  408: 'Timeout',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
};

/** A Status for an HTTP client error code, worded as Go's net/http names it. */
export const clientErrorStatus = (code: number, message: string): ApiError =>
  new ApiError(code, reasons[code] ?? '', message);

/** Go's `url.PathUnescape` error for the first bad escape of a URL, or a UTF-8 complaint. */
export function badURLMessage(url: string): string {
  const bad = /%(?![0-9a-fA-F]{2})(.{0,2})/s.exec(url);
  if (bad) return `invalid URL escape ${JSON.stringify(bad[0])}`;
  return 'invalid URL: the path is not valid UTF-8 once unescaped';
}

/**
 * The Status of an error fastify raises before (or instead of) a handler: bad URL escapes,
 * over-long path parameters, malformed bodies. Undefined for errors that are not the client's.
 */
export function frameworkErrorStatus(
  err: { code?: string; statusCode?: number; message: string },
  url: string,
): ApiError | undefined {
  if (err.code === 'FST_ERR_BAD_URL') return badRequest(badURLMessage(url));
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return pathNotFound();
  const code = err.statusCode ?? 500;
  if (code >= 400 && code < 500) return clientErrorStatus(code, err.message);
  return undefined;
}

/**
 * The raw HTTP/1.1 answer to a request Node's parser refused (fastify's `clientErrorHandler`):
 * a Status for headers too large (431), a request timeout (408) or anything malformed (400),
 * in place of fastify's own JSON. The connection is closed after it, as Node does.
 */
export function clientErrorResponse(err: { code?: string; rawPacket?: Buffer }): string {
  let code: number;
  let text: string;
  let message: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    [code, text] = [431, 'Request Header Fields Too Large'];
    message = 'Request Header Fields Too Large: the request line and headers exceed the server limit (16 KiB)';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    [code, text, message] = [408, 'Request Timeout', 'Request Timeout: the request was not received in time'];
  } else {
    [code, text] = [400, 'Bad Request'];
    message = `Bad Request: malformed HTTP request${err.code ? ` (${err.code})` : ''}`;
  }
  const body = `${JSON.stringify(clientErrorStatus(code, message).status)}\n`;
  // An answer to HEAD carries the length of the body it would have, and no body.
  const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  return (
    `HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nCache-Control: no-cache, private\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`
  );
}
