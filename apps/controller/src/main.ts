#!/usr/bin/env node
import './node-version.js';
import { keepMemoryReducerRunning, restartWithYoungGeneration } from '@kevents/cli';

restartWithYoungGeneration();
keepMemoryReducerRunning();
await import('./cli/command.js');
