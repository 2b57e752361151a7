import type { KubeObject } from '@kevents/api';
import type { ResourceStrategy } from './strategy.js';
import { withStructuralValidation } from './structural-validation.js';
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

/**
 * Declares a resource (keeps the object type of strategy and views tied together). When a
 * view's schema is `structural`, the strategy also validates that schema's `required` fields and
 * enums for requests through that view ({@link withStructuralValidation}).
 */
export const defineResource = <T extends KubeObject>(def: ResourceDefinition<T>): ResourceDefinition<T> =>
  def.views.some((v) => v.schema.structural) ? { ...def, strategy: withStructuralValidation(def.strategy) } : def;
