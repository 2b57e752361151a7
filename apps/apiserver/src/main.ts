#!/usr/bin/env node
import './node-version.js';
import { restartWithYoungGeneration } from '@kevents/cli';
import { semiSpaceMiBForArgs } from './cli/young-generation.js';

restartWithYoungGeneration({ semiSpaceMiB: semiSpaceMiBForArgs(process.argv.slice(2)) });
await import('./cli/command.js');
