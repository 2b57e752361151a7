import { defaultVersionInfo } from '@kevents/apiserver';
import type { VersionInfo } from '@kevents/api';
import { keventsVersion } from '@kevents/cli';

export { keventsVersion };

/** `/version`: kubectl reads major/minor to check skew; kevents speaks the 1.34 API. */
export const versionInfo = (): VersionInfo => defaultVersionInfo({ gitVersion: `v1.34.0-kevents.${keventsVersion}` });
