import { parseRequestTarget } from './request-target.js';
import type { RequestTarget } from './request-target.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { intParam, q, queryBool } from './query.js';

/**
 * What a request asks for, resolved once from its method, path and query (Kubernetes'
 * `request.RequestInfo`). Authorization, metrics, logs and the handlers read only this.
 */
export interface RequestInfo {
  /** A request for an API resource (`/api/v1/...`, `/apis/<group>/<version>/...` with a resource). */
  readonly isResourceRequest: boolean;
  /** The decoded URL path in canonical form (the request target's `path`), without the query. */
  readonly path: string;
  /**
   * `get list watch create update patch delete deletecollection` for resource requests (empty
   * for an unknown method); the lower-case HTTP method for non-resource requests.
   */
  readonly verb: string;
  /** `api` or `apis`; empty for non-resource requests. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path parts from the resource on: `[resource, name, subresource, ...]`. */
  readonly parts: readonly string[];
}

/** Query parameters as the HTTP layer hands them over. */
export type RequestQuery = Readonly<Record<string, string | string[] | undefined>>;

const namespaceSubresources: ReadonlySet<string> = new Set(['status', 'finalize']);

/** `path.IsValidPathSegmentName`: no `.`/`..`, no `/` or `%`. */
const isValidPathSegmentName = (name: string): boolean =>
  name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');

/**
 * What `NewRequestInfo` reads of a list's query through the parameter codec
 * (`metainternalversionscheme.ParameterCodec.DecodeParameters` into `ListOptions`): whether it
 * is a watch, and the name its field selector pins (`RequiresExactMatch("metadata.name")`: the
 * first `metadata.name=` or `==` term, terms in sorted order, its value unescaped). When any list
 * option does not decode (`timeoutSeconds` or `limit` not an int64, a selector that does not
 * parse) the options are dropped but for `watch`, read from the query as it stands, and no name:
 * so only a field selector that can pin the name makes the other options worth reading here.
 */
function listOptionsOf(query: RequestQuery): { watch: boolean; name: string | undefined } {
  const watch = queryBool(query, 'watch') === true;
  const fieldSelector = q(query, 'fieldSelector');
  if (fieldSelector === undefined || !fieldSelector.includes('metadata.name')) return { watch, name: undefined };
  try {
    intParam(query, 'timeoutSeconds');
    intParam(query, 'limit');
    parseLabelSelector(q(query, 'labelSelector') ?? '');
    const pinned = parseFieldSelector(fieldSelector).requirements.find(
      (r) => r.field === 'metadata.name' && r.op === '=',
    );
    return { watch, name: pinned?.value };
  } catch {
    return { watch, name: undefined };
  }
}

/**
 * `RequestInfoFactory.NewRequestInfo` with the `api` (groupless) and `apis` prefixes, for a
 * request target given as text (it is read by {@link parseRequestTarget}, as the server reads it).
 */
export function resolveRequestInfo(method: string, url: string, query: RequestQuery): RequestInfo {
  return requestInfoOf(method, parseRequestTarget(url), query);
}

/**
 * `RequestInfoFactory.NewRequestInfo` over a parsed request target. A GET without a name is a
 * `list`, or a `watch` when `watch` is true by the parameter codec's rules (or on a legacy
 * `/watch/` path); a list whose field selector pins `metadata.name` keeps the verb `list` and
 * names the object; a DELETE without a name is `deletecollection`.
 */
export function requestInfoOf(method: string, target: RequestTarget, query: RequestQuery): RequestInfo {
  const path = target.path;
  const all = target.segments;
  if (all.length < 3) return nonResourceInfo(method, path);
  const apiPrefix = all[0]!;
  if (apiPrefix !== 'api' && apiPrefix !== 'apis') return nonResourceInfo(method, path);
  let i = 1;
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    // Still a request for no resource, but Go has set the prefix by then.
    if (all.length < 4) return { ...nonResourceInfo(method, path), apiPrefix };
    apiGroup = all[i++]!;
  }
  const apiVersion = all[i++]!;
  let verb: string;
  const head = all[i];
  if (head === 'watch' || head === 'proxy') {
    verb = head;
    i++;
    if (i === all.length) {
      return { ...nonResourceInfo(method, path), isResourceRequest: true, apiPrefix, apiGroup, apiVersion, verb };
    }
  } else {
    verb = verbOfMethod(method);
  }
  let namespace = '';
  if (all[i] === 'namespaces') {
    if (all.length - i > 1) {
      namespace = all[i + 1]!;
      if (all.length - i > 2 && !namespaceSubresources.has(all[i + 2]!)) i += 2;
    }
  }
  const rest = all.length - i;
  const resource = all[i] ?? '';
  let name = all[i + 1] ?? '';
  const subresource = rest >= 3 && verb !== 'proxy' ? all[i + 2]! : '';
  if (name === '' && verb === 'get') {
    const opts = listOptionsOf(query);
    verb = opts.watch ? 'watch' : 'list';
    if (opts.name !== undefined && isValidPathSegmentName(opts.name)) name = opts.name;
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts: all.slice(i),
  };
}

const noParts: readonly string[] = [];

/** The RequestInfo of a request for no API resource. */
const nonResourceInfo = (method: string, path: string): RequestInfo => ({
  isResourceRequest: false,
  path,
  verb: method.toLowerCase(),
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  parts: noParts,
});

function verbOfMethod(method: string): string {
  switch (method) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return '';
  }
}
