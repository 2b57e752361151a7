import type { KubeObject } from '@kevents/api';
import type { VersionedView } from '../registry/view.js';
import { decodeKind, mediaType, parseBody, parseBodyOffLoop, parseProtobufBody } from './body.js';
import type { BodyReadOptions, ParsedBody } from './body.js';
import { defaultValueLimits } from '../registry/value-limits.js';
import type { ValueLimits } from '../registry/value-limits.js';
import type { RestRequest } from '../request/rest-request.js';
import { parseFieldValidation } from '../request/query.js';

/** A create or update body decoded into the stored form, with the field-validation warnings. */
export interface DecodedObjectBody<T> {
  readonly object: T;
  readonly warnings: string[];
  /** The body's values (object members and array elements), when its parse counted them (JSON). */
  readonly values?: number;
}

/**
 * Decodes a create/update body into the stored form, with the field-validation warnings: JSON
 * and protobuf at once, YAML as a promise (a large YAML body is read on the YAML thread, yaml-thread.ts), so
 * the JSON path, which every client but raw YAML ones takes, waits for nothing. A body of more
 * values than `valueLimits` allow is a 413.
 */
export function decodeObjectBody<T extends KubeObject>(
  view: VersionedView<T>,
  req: RestRequest,
  valueLimits?: ValueLimits,
): DecodedObjectBody<T> | Promise<DecodedObjectBody<T>> {
  // The media type was checked by the handler (kube checks it before the options: a 415 first).
  const contentType = req.headers['content-type'];
  const unrecognized: BodyReadOptions = { unrecognizedKind: view.kind, valueLimits: valueLimits ?? defaultValueLimits };
  if (view.protobuf && mediaType(contentType) === 'application/vnd.kubernetes.protobuf') {
    return decodeParsed(view, req, parseProtobufBody(req.body, view.protobuf.object, view, unrecognized), unrecognized);
  }
  if (mediaType(contentType) === 'application/yaml') {
    return parseBodyOffLoop(req.body, contentType, unrecognized).then((parsed) =>
      decodeParsed(view, req, parsed, unrecognized),
    );
  }
  return decodeParsed(view, req, parseBody(req.body, contentType, unrecognized), unrecognized);
}

function decodeParsed<T extends KubeObject>(
  view: VersionedView<T>,
  req: RestRequest,
  parsed: ParsedBody,
  unrecognized: BodyReadOptions,
): DecodedObjectBody<T> {
  const fieldValidation = parseFieldValidation(req.query);
  const decoded = decodeKind<Record<string, unknown>>(parsed, view.schema, view, fieldValidation, unrecognized);
  const object = view.toInternal(decoded.object);
  object.metadata = object.metadata ?? {};
  return {
    object,
    warnings: decoded.warnings,
    ...(parsed.values !== undefined && { values: parsed.values }),
  };
}
