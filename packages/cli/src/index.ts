export { FlagError, defaultOptions, flagHelp, parseCommandLine, parseFlagValue } from './flags.js';
export type { CommandLine, FlagSpec, FlagSpecs, FlagType, FlagValueTypes, OptionsOf } from './flags.js';
export { createLogger, formatText, logFlags, logFormats, logLevels } from './logger.js';
export type { Logger, LoggerOptions } from './logger.js';
export { keventsVersion } from './version.js';
export {
  defaultSemiSpaceMiB,
  heapGrowingPercent,
  restartWithYoungGeneration,
  youngGeneration,
  youngGenerationSummary,
} from './young-generation.js';
export type { YoungGeneration, YoungGenerationOptions, YoungGenerationSource } from './young-generation.js';
export { keepMemoryReducerRunning, memoryReducerDefaults } from './memory-reducer.js';
export type { MemoryReducerOptions } from './memory-reducer.js';
