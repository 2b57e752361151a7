import { notAcceptable } from '../errors/api-error.js';

/** What a GET answers with: the object(s), or a meta.k8s.io Table. */
export type Representation = { readonly as: 'object' } | { readonly as: 'Table'; readonly version: 'v1' | 'v1beta1' };

const acceptable = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];

/**
 * Picks the representation from an Accept header in the client's order, as kube-apiserver's
 * negotiation does: `application/json;as=Table;v=v1;g=meta.k8s.io` selects a Table; plain
 * JSON or a wildcard selects the object. Nothing acceptable is a 406.
 */
export function negotiate(accept: string | undefined): Representation {
  if (!accept) return { as: 'object' };
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim());
    const p = new Map(
      params.map((kv) => {
        const [k, v = ''] = kv.split('=');
        return [k!.trim(), v.trim()] as const;
      }),
    );
    const t = (type ?? '').toLowerCase();
    if (t !== 'application/json' && t !== '*/*' && t !== 'application/*') continue;
    const as = p.get('as');
    if (as === undefined) return { as: 'object' };
    if (as === 'Table' && p.get('g') === 'meta.k8s.io' && (p.get('v') === 'v1' || p.get('v') === 'v1beta1')) {
      return { as: 'Table', version: p.get('v') as 'v1' | 'v1beta1' };
    }
  }
  throw notAcceptable(acceptable);
}
