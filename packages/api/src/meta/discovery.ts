/** `metav1.ServerAddressByClientCIDR` */
export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

/** `metav1.APIVersions`: the answer of `/api`. */
export interface APIVersions {
  kind: 'APIVersions';
  apiVersion?: 'v1';
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

/** `metav1.GroupVersionForDiscovery` */
export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

/** `metav1.APIGroup` */
export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion?: GroupVersionForDiscovery;
}

/** `metav1.APIGroupList`: the answer of `/apis`. */
export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

/** `metav1.APIResource` */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** `metav1.APIResourceList`: the answer of `/apis/<group>/<version>` and `/api/v1`. */
export interface APIResourceList {
  kind: 'APIResourceList';
  /** Left out for the core group (kube-apiserver strips it there, as release 1.1 answered). */
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/** `version.Info`: the answer of `/version`. */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}
