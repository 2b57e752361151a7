export { runValidateConfig } from './run.js';
export type { ValidateConfigIO } from './run.js';
export { formatConfigErrors, configErrorRecords } from './format.js';
export type { ConfigErrorRecord } from './format.js';
export { validateConfigFlags, validateConfigUsage } from './flags.js';
