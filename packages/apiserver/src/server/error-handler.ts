import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import {
  ApiError,
  internalError,
  pathNotFound,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '../errors/api-error.js';
import { frameworkErrorStatus } from '../errors/framework-errors.js';
import { sendStatus } from '../encoding/respond.js';

/** Options of {@link installErrorHandlers}. */
export interface ErrorHandlerOptions {
  /** The body limit that a 413 names. */
  readonly bodyLimit: number;
  /** Where unexpected failures are logged. */
  readonly logger?: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * Panic recovery and 404s: an `ApiError` is answered as its Status (with its headers);
 * fastify's own errors (oversized body, media type, router refusals) become the Status
 * kube-apiserver answers; anything else is logged and answered 500. A path no route serves is
 * the 404 Status `the server could not find the requested resource`.
 */
export function installErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions): void {
  const { bodyLimit, logger } = options;
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') apiErr = requestEntityTooLarge(bodyLimit);
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      apiErr = unsupportedMediaType(['application/json', 'application/yaml']);
    } else if (frameworkErrorStatus(err, req.url)) {
      apiErr = frameworkErrorStatus(err, req.url)!;
    } else {
      logger?.error({ err, method: req.method, url: req.url }, 'request failed');
      apiErr = internalError(err);
    }
    for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
    return sendStatus(reply, req, apiErr.code, apiErr.status, apiErr.statusText);
  });
  app.setNotFoundHandler((req, reply) => sendStatus(reply, req, 404, pathNotFound().status));
}
