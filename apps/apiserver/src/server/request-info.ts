import type { RequestLabels } from './metrics.js';

/**
 * `RequestInfo` for metrics (and later authorization): which verb, group, version, resource,
 * namespace and name a request addresses. Non-resource paths get an empty resource.
 */
export interface RequestInfo extends RequestLabels {
  readonly isResourceRequest: boolean;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

export function requestInfo(method: string, url: string): RequestInfo {
  const [path = '/', search = ''] = url.split('?');
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean);
  const base = { component: 'apiserver', dry_run: query.has('dryRun') ? 'All' : '', subresource: '', path };
  let rest: string[];
  let group = '';
  let version = '';
  if (parts[0] === 'api' && parts.length >= 2) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return { ...base, verb: method, group: '', version: '', resource: '', scope: '', isResourceRequest: false, namespace: '', name: '' };
  }
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  if (resource === 'namespaces' && !namespace && name) namespace = name;
  const scope = name ? 'resource' : namespace ? 'namespace' : 'cluster';
  const watch = watchPath || query.get('watch') === 'true' || query.get('watch') === '1';
  let verb = method === 'HEAD' ? 'GET' : method;
  if (verb === 'GET' && !name) verb = watch ? 'WATCH' : 'LIST';
  return { ...base, verb, group, version, resource, scope, isResourceRequest: resource !== '', namespace, name };
}
