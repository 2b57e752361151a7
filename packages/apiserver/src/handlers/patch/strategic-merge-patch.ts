import { badRequest } from '../../errors/api-error.js';
import { getOwn, setOwn } from './own.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** List fields of ObjectMeta with a merge strategy: `finalizers` (set) and `ownerReferences` (by uid). */
const mergeKeys: Readonly<Record<string, string | null>> = { finalizers: null, ownerReferences: 'uid' };

function mergeList(target: unknown, patch: unknown[], key: string | null): unknown[] {
  const base = Array.isArray(target) ? [...target] : [];
  if (key === null) {
    for (const v of patch) if (!base.includes(v)) base.push(v);
    return base;
  }
  for (const item of patch) {
    if (!isObject(item)) continue;
    if (getOwn(item, '$patch') === 'delete') {
      const idx = base.findIndex((b) => isObject(b) && getOwn(b, key) === getOwn(item, key));
      if (idx >= 0) base.splice(idx, 1);
      continue;
    }
    const idx = base.findIndex((b) => isObject(b) && getOwn(b, key) === getOwn(item, key));
    if (idx >= 0) base[idx] = strategicMerge(base[idx], item, '');
    else base.push(item);
  }
  return base;
}

/**
 * `$setElementOrder`: the items the directive names come in its order, the others keep their
 * relative places after them (`normalizeElementOrder`).
 */
function orderList(list: unknown[], order: unknown[], key: string | null): unknown[] {
  const id = (v: unknown): unknown => (key === null ? v : isObject(v) ? getOwn(v, key) : undefined);
  const wanted = order.map(id);
  const rank = (v: unknown): number => {
    const i = wanted.indexOf(id(v));
    return i < 0 ? wanted.length : i;
  };
  return list
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map((x) => x.v);
}

/**
 * A strategic merge patch for the Event kinds: a merge patch plus the directives
 * (`$patch: replace|delete|merge`, `$retainKeys`, `$deleteFromPrimitiveList/<f>`,
 * `$setElementOrder/<f>`) and the merge strategies of metadata lists. No Event field is a list
 * with a merge key, so other lists are replaced, as Kubernetes does.
 */
export function strategicMerge(target: unknown, patch: unknown, path = ''): unknown {
  if (!isObject(patch)) return patch;
  const directive = getOwn(patch, '$patch');
  if (directive === 'delete') return undefined;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw badRequest(`Unable to find the patch directive: ${String(directive)}`);
  }
  const src: Record<string, unknown> = directive === 'replace' || !isObject(target) ? {} : { ...target };
  const retain = getOwn(patch, '$retainKeys');
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      const list = getOwn(src, f);
      if (Array.isArray(list) && Array.isArray(v))
        setOwn(
          src,
          f,
          list.filter((x) => !v.includes(x)),
        );
      continue;
    }
    if (v === null) {
      delete src[k];
      continue;
    }
    const childPath = path ? `${path}.${k}` : k;
    if (Array.isArray(v) && path === 'metadata' && Object.hasOwn(mergeKeys, k)) {
      setOwn(src, k, mergeList(getOwn(src, k), v, mergeKeys[k]!));
    } else {
      const merged = strategicMerge(getOwn(src, k), v, childPath);
      if (merged === undefined) delete src[k];
      else setOwn(src, k, merged);
    }
  }
  for (const [k, order] of Object.entries(patch)) {
    if (!k.startsWith('$setElementOrder/') || !Array.isArray(order)) continue;
    const f = k.slice('$setElementOrder/'.length);
    const list = getOwn(src, f);
    if (Array.isArray(list) && path === 'metadata' && Object.hasOwn(mergeKeys, f)) {
      setOwn(src, f, orderList(list, order, mergeKeys[f]!));
    }
  }
  if (Array.isArray(retain)) {
    for (const k of Object.keys(src)) if (!retain.includes(k)) delete src[k];
  }
  return src;
}
