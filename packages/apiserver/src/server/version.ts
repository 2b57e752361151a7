import type { VersionInfo } from '@kevents/api';

/** The Kubernetes minor version whose API this package serves (kubectl checks skew against it). */
export const kubernetesMinorVersion = '34';

/** Go's name of a Node architecture (`x64` is `amd64`, `ia32` is `386`), as `/version` reports `runtime.GOARCH`. */
const goArch = (arch: string): string => (arch === 'x64' ? 'amd64' : arch === 'ia32' ? '386' : arch);

/**
 * A `/version` answer (`version.Info`) for a server built on this package: major and minor of
 * the Kubernetes API it speaks (1.34), the Node version as `goVersion`, `tsc` as the compiler and
 * the platform in Go's spelling. Override what names your server, usually `gitVersion`
 * (`v1.34.0-widgets.1.2.0`); kubectl reads only major and minor.
 */
export function defaultVersionInfo(overrides: Partial<VersionInfo> = {}): VersionInfo {
  return {
    major: '1',
    minor: kubernetesMinorVersion,
    gitVersion: `v1.${kubernetesMinorVersion}.0`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${goArch(process.arch)}`,
    ...overrides,
  };
}
