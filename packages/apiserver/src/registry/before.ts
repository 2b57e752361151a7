import { randomUUID } from '../request/random-uuid.js';
import { timeNow } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { badRequest } from '../errors/api-error.js';
import type { NameGenerator } from './generate-name.js';

/** Checks the body's namespace against the URL's (an empty body namespace takes the URL's). */
export function checkNamespace(obj: KubeObject, namespace: string): void {
  if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  obj.metadata.namespace = namespace;
}

/**
 * `rest.BeforeCreate`: server-set metadata for a new object. The store sets resourceVersion;
 * a client-set one is refused, as Kubernetes' storage refuses it. `generation` is left as sent,
 * as kube-apiserver leaves it: only a strategy that tracks its spec sets it (to 1, see
 * `withSpecGeneration`); Events and Leases keep what the client sent (never negative: validation).
 */
export function beforeCreate(obj: KubeObject, namespace: string, generate: NameGenerator): void {
  obj.metadata = { ...obj.metadata };
  checkNamespace(obj, namespace);
  if (obj.metadata.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
  if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = generate(obj.metadata.generateName);
  obj.metadata.uid = randomUUID();
  obj.metadata.creationTimestamp = timeNow();
  delete obj.metadata.deletionTimestamp;
  delete obj.metadata.deletionGracePeriodSeconds;
  delete obj.metadata.selfLink;
}

/**
 * `rest.BeforeUpdate`: keep the system fields of the stored object. A request cannot change
 * `generation`: it is the stored one (a strategy's `prepareForUpdate`, which runs next, may bump it).
 */
export function beforeUpdate(obj: KubeObject, old: KubeObject): void {
  obj.metadata = { ...obj.metadata };
  if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
  else delete obj.metadata.generation;
  if (!obj.metadata.uid) obj.metadata.uid = old.metadata.uid;
  if (old.metadata.creationTimestamp) obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
  if (old.metadata.generateName !== undefined && obj.metadata.generateName === undefined) {
    obj.metadata.generateName = old.metadata.generateName;
  }
  delete obj.metadata.selfLink;
  if (old.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
  else delete obj.metadata.deletionTimestamp;
  if (old.metadata.deletionGracePeriodSeconds !== undefined) {
    obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  } else delete obj.metadata.deletionGracePeriodSeconds;
}
