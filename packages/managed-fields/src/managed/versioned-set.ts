import type { FieldSet } from '../fieldpath/set.js';

/** The fields one manager owns, at the API version it wrote them in (`fieldpath.VersionedSet`). */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an `Apply` entry. */
  readonly applied: boolean;
}

/** Managers by identifier (`fieldpath.ManagedFields`); see `buildManagerIdentifier`. */
export type ManagedFields = Map<string, VersionedSet>;
