import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json the pack checks read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly license?: string;
  readonly keywords?: readonly string[];
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly engines?: { readonly node?: string };
  readonly files?: readonly string[];
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** One workspace package: its folder (relative to the repository) and manifest. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: Manifest;
}

/** Every package under `packages/`, public or private. */
export function workspacePackages(root: string): WorkspacePackage[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = `packages/${d.name}`;
      return { dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest };
    })
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

/** The packages published to a registry: those not marked `private`. */
export function publicPackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter((p) => p.manifest.private !== true);
}

/** The name of the tarball `npm pack` writes for a package (`@kevents/api` 0.1.0: `kevents-api-0.1.0.tgz`). */
export function tarballName(m: Manifest): string {
  return `${m.name.replace(/^@/, '').replace('/', '-')}-${m.version}.tgz`;
}

/** The files an `exports` map points at, by subpath and condition (`./testing` `types` ...). */
export function exportTargets(m: Manifest): { subpath: string; condition: string; target: string }[] {
  const out: { subpath: string; condition: string; target: string }[] = [];
  for (const [subpath, value] of Object.entries(m.exports ?? {})) {
    if (typeof value === 'string') out.push({ subpath, condition: 'default', target: value });
    else for (const [condition, target] of Object.entries(value)) out.push({ subpath, condition, target });
  }
  return out;
}
