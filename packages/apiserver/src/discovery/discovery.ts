import type { APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions } from '@kevents/api';

/** One resource as discovery lists it, in its group version. */
export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  readonly resource: APIResource;
}

/** Every resource a server lists in discovery (served or listed only), in registration order. */
export class DiscoveryIndex {
  readonly #byGV = new Map<string, { group: string; version: string; resources: APIResource[] }>();

  add(d: DiscoveredResource): void {
    const key = `${d.group}/${d.version}`;
    let gv = this.#byGV.get(key);
    if (!gv) {
      gv = { group: d.group, version: d.version, resources: [] };
      this.#byGV.set(key, gv);
    }
    gv.resources.push(d.resource);
  }

  /** The group versions, core first, then groups in registration order. */
  groupVersions(): { group: string; version: string; resources: APIResource[] }[] {
    const all = [...this.#byGV.values()];
    return [...all.filter((g) => g.group === ''), ...all.filter((g) => g.group !== '')];
  }

  /** Non-core groups with their versions (first registered version preferred). */
  groups(): APIGroup[] {
    const out = new Map<string, APIGroup>();
    for (const gv of this.groupVersions()) {
      if (gv.group === '') continue;
      const entry = { groupVersion: `${gv.group}/${gv.version}`, version: gv.version };
      const g = out.get(gv.group);
      if (g) g.versions.push(entry);
      else out.set(gv.group, { name: gv.group, versions: [entry], preferredVersion: entry });
    }
    return [...out.values()];
  }

  /** `/api`: the core versions and where clients reach the server. */
  apiVersions(serverAddress: string): APIVersions {
    return {
      kind: 'APIVersions',
      versions: this.groupVersions()
        .filter((g) => g.group === '')
        .map((g) => g.version),
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }

  /** `/apis`. */
  apiGroupList(): APIGroupList {
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: this.groups() };
  }

  /**
   * `/api/v1`, `/apis/<group>/<version>`: resources sorted by name, as kube-apiserver lists them;
   * without apiVersion for the core group and `extensions` (kube's `stripVersionEncoder`).
   */
  resourceList(group: string, version: string): APIResourceList | undefined {
    const gv = this.#byGV.get(`${group}/${version}`);
    if (!gv) return undefined;
    return {
      kind: 'APIResourceList',
      ...(group === '' || group === 'extensions' ? {} : { apiVersion: 'v1' as const }),
      groupVersion: group ? `${group}/${version}` : version,
      resources: [...gv.resources].sort((a, b) => a.name.localeCompare(b.name)),
    };
  }
}
