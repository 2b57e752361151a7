/**
 * `@kevents/api/testing`: test helpers with no dependencies, which every package and app may import (the
 * api package is the lowest layer).
 */
export { waitFor } from './wait-for.js';
export type { WaitForOptions } from './wait-for.js';
