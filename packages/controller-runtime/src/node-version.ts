/**
 * Evaluated before any other module of the package (index.ts imports it first): undici 8, which
 * the REST client uses, needs Node.js 22.19 and fails at import on older versions with a
 * TypeError from deep inside `undici/lib/interceptor/decompress.js`. This names the cause instead.
 */

/** The oldest Node.js this package runs on (its `engines` field says the same). */
export const minimumNodeVersion = '22.19.0';

/** True when `version` (`22.18.1`, without the `v`) is older than {@link minimumNodeVersion}. */
export function isTooOldNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 19);
}

if (isTooOldNode(process.versions.node)) {
  throw new Error(
    `@kevents/controller-runtime needs Node.js ${minimumNodeVersion} or newer (undici 8); this is ${process.versions.node}`,
  );
}
