#!/usr/bin/env node
import './node-version.js';
import { restartWithYoungGeneration } from '@kevents/cli';

restartWithYoungGeneration();
await import('./cli/command.js');
