import { fieldElement, indexElement, pathElementString, pathElementsEqual } from './path-element.js';
import type { PathElement } from './path-element.js';

/** A path from the root of an object to one of its fields (`fieldpath.Path`). */
export type Path = readonly PathElement[];

/** `Path.String`: the elements' strings joined (`.spec.ports[port=80]`). */
export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

/** Whether two paths are equal element by element. */
export function pathsEqual(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((pe, i) => pathElementsEqual(pe, b[i]!));
}

/**
 * `fieldpath.MakePathOrDie` for tests and static sets: strings become field names, numbers
 * indexes, and path elements pass through. Use `valueElement`/`keyElementOf` for the rest.
 */
export function makePath(...parts: readonly (string | number | PathElement)[]): Path {
  return parts.map((p) => (typeof p === 'string' ? fieldElement(p) : typeof p === 'number' ? indexElement(p) : p));
}
