const title = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/**
 * The group part of Kubernetes operation ids: `Core` for the core group, else the group name
 * without its domain, camel-cased by dots and dashes (`events.k8s.io` is `Events`,
 * `rbac.authorization.k8s.io` is `RbacAuthorization`).
 */
export function groupOperationName(group: string, domain = 'k8s.io'): string {
  if (group === '') return 'Core';
  const bare = group.endsWith(`.${domain}`) ? group.slice(0, -(domain.length + 1)) : group;
  return bare.split(/[.-]/).map(title).join('');
}

/** The group-version part of operation ids: `EventsV1`, `CoreV1`. */
export function groupVersionOperationName(group: string, version: string, domain?: string): string {
  return `${groupOperationName(group, domain)}${title(version)}`;
}

/** The tag Kubernetes files a group version's operations under: `events_v1`, `core_v1`. */
export function groupVersionTag(group: string, version: string, domain?: string): string {
  const g = groupOperationName(group, domain);
  return `${g[0]!.toLowerCase()}${g.slice(1)}_${version}`;
}
