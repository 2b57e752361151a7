import { eventsStorageVersionHash } from '@kevents/api';
import type { APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions } from '@kevents/api';
import type { ResourceView } from '../registry/resource-view.js';
import { referencedGroups, referencedIn } from './referenced-kinds.js';

const eventVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The APIResource of events, identical in core/v1 and events.k8s.io/v1 (as on a real cluster). */
export const eventsAPIResource = (): APIResource => ({
  name: 'events',
  singularName: 'event',
  namespaced: true,
  kind: 'Event',
  verbs: [...eventVerbs],
  shortNames: ['ev'],
  storageVersionHash: eventsStorageVersionHash,
});

/** Synthesized namespaces are readable, so kubectl can word its NotFound errors. */
export const namespacesAPIResource = (): APIResource => ({
  name: 'namespaces',
  singularName: 'namespace',
  namespaced: false,
  kind: 'Namespace',
  verbs: ['get', 'list'],
  shortNames: ['ns'],
});

export const apiVersions = (serverAddress: string): APIVersions => ({
  kind: 'APIVersions',
  versions: ['v1'],
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
});

export const coreResourceList = (withEvents: boolean): APIResourceList => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: 'v1',
  resources: [...(withEvents ? [eventsAPIResource()] : []), namespacesAPIResource(), ...referencedIn('', 'v1')].sort((a, b) => a.name.localeCompare(b.name)),
});

/** Discovery of a group that holds only referenced kinds (apps, batch). */
export const referencedGroup = (group: string, version: string): APIGroup => {
  const gv = { groupVersion: `${group}/${version}`, version };
  return { name: group, versions: [gv], preferredVersion: gv };
};

export const referencedResourceList = (group: string, version: string): APIResourceList => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: `${group}/${version}`,
  resources: referencedIn(group, version),
});

export const apiGroup = (view: ResourceView): APIGroup => {
  const gv = { groupVersion: view.groupVersion, version: view.version };
  return { name: view.group, versions: [gv], preferredVersion: gv };
};

export const apiGroupList = (views: readonly ResourceView[]): APIGroupList => ({
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: [...views.map(apiGroup), ...referencedGroups().map((g) => referencedGroup(g.group, g.version))],
});

export const groupResourceList = (view: ResourceView): APIResourceList => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: view.groupVersion,
  resources: [eventsAPIResource()],
});
