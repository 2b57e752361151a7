import type { KubeObject } from '@kevents/api';
import type { ResourceStrategy } from './strategy.js';
import type { VersionedView } from './view.js';

/**
 * A resource to serve: its storage name, its strategy, and the group versions it is served at.
 * Every view reads and writes the same stored objects.
 */
export interface ResourceDefinition<T extends KubeObject = KubeObject> {
  /** The storage resource (`events`, `leases`). */
  readonly resource: string;
  readonly strategy: ResourceStrategy<T>;
  readonly views: readonly VersionedView<T>[];
}

/** Declares a resource (keeps the object type of strategy and views tied together). */
export const defineResource = <T extends KubeObject>(def: ResourceDefinition<T>): ResourceDefinition<T> => def;
