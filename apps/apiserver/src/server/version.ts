import type { VersionInfo } from '@kevents/api';

/** The kevents release, reported through `/version` as a Kubernetes-style gitVersion. */
export const keventsVersion = '0.1.0';

/** `/version`: kubectl reads major/minor to check skew; kevents speaks the 1.34 API. */
export const versionInfo = (): VersionInfo => ({
  major: '1',
  minor: '34',
  gitVersion: `v1.34.0-kevents.${keventsVersion}`,
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
});
