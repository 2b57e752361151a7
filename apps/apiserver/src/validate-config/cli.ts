#!/usr/bin/env node
import { runValidateConfig } from './run.js';

/** Stand-alone entry: `node cli.js [-o json] FILE...` (the apiserver binary dispatches here too). */
process.exitCode = await runValidateConfig(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
