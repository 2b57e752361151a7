import type { OwnerReference } from '@kevents/api';
import { invalid, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';

/** `schema.FromAPIVersionAndKind` then `GroupVersionKind.String()`, e.g. `/v1, Kind=Event`. */
function gvk(apiVersion: string, kind: string): { group: string; version: string; text: string } {
  let group = '';
  let version = '';
  const slashes = apiVersion.split('/').length - 1;
  if (apiVersion !== '/' && slashes === 0) version = apiVersion;
  else if (apiVersion !== '/' && slashes === 1) [group, version] = apiVersion.split('/') as [string, string];
  return { group, version, text: `${group}/${version}, Kind=${kind}` };
}

/** The reference as `json.Marshal` prints `metav1.OwnerReference` (omitempty pointers). */
const ownerJSON = (r: OwnerReference) => ({
  apiVersion: r.apiVersion ?? '',
  kind: r.kind ?? '',
  name: r.name ?? '',
  uid: r.uid ?? '',
  ...(r.controller === undefined ? {} : { controller: r.controller }),
  ...(r.blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion: r.blockOwnerDeletion }),
});

/**
 * `ValidateOwnerReferences`: apiVersion has a version, kind/name/uid are set, core/v1 Events may not
 * own anything, and at most one reference is the controller. Paths are not indexed, as in Kubernetes.
 */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const g = gvk(ref.apiVersion ?? '', ref.kind ?? '');
    if (!g.version) errs.push(invalid(path.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(invalid(path.child('kind'), ref.kind ?? '', 'must not be empty'));
    if (!ref.name) errs.push(invalid(path.child('name'), ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(invalid(path.child('uid'), ref.uid ?? '', 'must not be empty'));
    if (g.group === '' && g.version === 'v1' && ref.kind === 'Event') {
      errs.push(invalid(path, ownerJSON(ref), `${g.text} is disallowed from being an owner`));
    }
    if (ref.controller) {
      const name = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(
          invalid(
            path,
            (refs ?? []).map(ownerJSON),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
      } else firstController = name;
    }
  }
  return errs;
}
