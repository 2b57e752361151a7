import type { Atom } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';

/** A value with its type (`typed.TypedValue`); `undefined` is the absent object. */
export interface TypedValue {
  readonly value: JsonValue | undefined;
  readonly type: Atom;
}

/** The version asked for is not served (`IsMissingVersionError`): managers at it are dropped. */
export class MissingVersionError extends Error {
  override readonly name = 'MissingVersionError';
}

/** Converts objects between the API versions managers wrote them in (`merge.Converter`). */
export interface VersionConverter {
  /** The object at `apiVersion`; throws {@link MissingVersionError} when that version is unknown. */
  convert(object: TypedValue, apiVersion: string): TypedValue;
}

/**
 * The converter for a resource served at one API version, and for structured-merge-diff's
 * test fixtures (`dummyConverter`): every version has the object's shape, nothing changes.
 */
export const identityConverter: VersionConverter = {
  convert: (object) => object,
};

/** One served version of a resource, for {@link versionConverter}. */
export interface ServedVersion {
  /** The typed schema of the version. */
  readonly type: Atom;
  /** The version's wire object to the shared (stored, "hub") form. */
  toHub(object: JsonValue): unknown;
  /** The shared form to this version's wire object (with its `apiVersion`). */
  fromHub(hub: unknown): JsonValue;
}

/**
 * A converter over a resource's served versions by apiVersion (kube's `versionConverter`):
 * an object already at the asked version is returned as it is; otherwise it goes through the
 * hub form. Its own version is read from its `apiVersion` field; asking for a version not in
 * `versions` throws {@link MissingVersionError}.
 */
export function versionConverter(versions: ReadonlyMap<string, ServedVersion>): VersionConverter {
  return {
    convert(object, apiVersion) {
      const target = versions.get(apiVersion);
      if (!target) throw new MissingVersionError(`no corresponding type for ${apiVersion}`);
      const value = object.value;
      const from = isJsonObject(value) && typeof value['apiVersion'] === 'string' ? value['apiVersion'] : undefined;
      if (from === apiVersion || value === undefined || value === null) return { value, type: target.type };
      const source = from === undefined ? undefined : versions.get(from);
      if (!source) throw new MissingVersionError(`no corresponding type for ${String(from)}`);
      return { value: target.fromHub(source.toHub(value)), type: target.type };
    },
  };
}
