#!/usr/bin/env node
import './node-version.js';
import { keepMemoryReducerRunning, restartWithYoungGeneration } from '@kevents/cli';
import { heapSettingsForArgs } from './cli/young-generation.js';

restartWithYoungGeneration(heapSettingsForArgs(process.argv.slice(2)));
keepMemoryReducerRunning();
await import('./cli/command.js');
