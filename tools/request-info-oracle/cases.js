// Random requests for compare.js: methods, API prefixes, groups and versions, legacy `watch/`
// and `proxy/` paths, namespaces, resources, names, subresources, percent-encoded and odd
// segments, trailing and doubled slashes, the absolute form, and queries that decide the verb and
// the name the authorizer sees (`watch`, `fieldSelector=metadata.name=...`, with list options that
// do or do not decode, semicolons, repeated and badly encoded parameters).

export { seededRandom as random } from '../lib/seeded-random.js';

const methods = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'DELETE', 'OPTIONS', 'get'];
const prefixes = [
  '/api/v1',
  '/api/v1',
  '/apis/events.k8s.io/v1',
  '/apis/coordination.k8s.io/v1',
  '/apis/g',
  '/api',
  '/apis',
  '/x/v1',
  '',
];
const segments = [
  'events',
  'leases',
  'namespaces',
  'ns',
  'e',
  'status',
  'finalize',
  'watch',
  'proxy',
  'a%2Fb',
  '%2E',
  '.',
  '..',
  'a%25b',
  'a%20b',
  'é',
  '%C3%A9',
  'x;y',
  'a:b',
  '~',
];
const names = ['x', 'e-1', 'a.b', '.', '..', 'a/b', 'a%b', 'a,b', '', ' x'];

function pathOf(r) {
  let p = r.pick(prefixes);
  if (r.chance(0.2)) p += r.pick(['/watch', '/proxy']);
  if (r.chance(0.5)) p += `/namespaces/${r.pick(['ns', 'a%2Fb', '.', 'x'])}`;
  const n = r.int(4);
  for (let i = 0; i < n; i++) p += `/${r.pick(segments)}`;
  if (r.chance(0.1)) p += '/';
  if (r.chance(0.03)) p = p.replace('/v1', '/v1/');
  if (p === '') p = '/';
  return p;
}

const encode = (s) => encodeURIComponent(s);

function queryOf(r) {
  const parts = [];
  const n = r.int(4);
  for (let i = 0; i < n; i++) {
    switch (r.int(9)) {
      case 0:
      case 1:
        parts.push(`watch=${r.pick(['true', '1', 'false', '0', 'FALSE', '', 't', 'no', 'False'])}`);
        break;
      case 2:
      case 3: {
        const name = r.pick(names);
        const sel = r.pick([
          `metadata.name=${name}`,
          `metadata.name==${name}`,
          `metadata.name!=${name}`,
          `metadata.name=${name},type=x`,
          `type=x,metadata.name=${name}`,
          `metadata.name=${name},metadata.name=y`,
          `metadata.name=a\\,b`,
          `metadata.name=a,b`,
          `metadata.name`,
          `metadata.namespace=${name}`,
        ]);
        parts.push(`fieldSelector=${r.chance(0.7) ? encode(sel) : sel}`);
        break;
      }
      case 4:
        parts.push(`labelSelector=${encode(r.pick(['a=b', 'a_', 'a in (x', '', '!a', 'a=b,c']))}`);
        break;
      case 5:
        parts.push(`limit=${r.pick(['1', 'abc', '', '-1', '9223372036854775808'])}`);
        break;
      case 6:
        parts.push(`timeoutSeconds=${r.pick(['1', 'x', ''])}`);
        break;
      case 7:
        parts.push(r.pick(['x=1;y=2', 'watch=1;a', '%zz=1', 'watch=%zz', 'watch', '=1', '&', 'resourceVersion=0']));
        break;
      default:
        parts.push(
          `${r.pick(['continue', 'allowWatchBookmarks', 'sendInitialEvents', 'resourceVersionMatch'])}=${r.pick(['x', 'true', ''])}`,
        );
    }
  }
  return parts.length || r.chance(0.1) ? `?${parts.join('&')}` : '';
}

/** One request: a method and a request target as a client sends it. */
export function requestOf(r) {
  let target = pathOf(r) + queryOf(r);
  if (r.chance(0.05)) target = `http://h${target.startsWith('/') ? '' : '/'}${target}`;
  return { method: r.pick(methods), target };
}
