#!/usr/bin/env node
/** Writes the containers.conf the image builder and tests use and prints its path and text (.ci/install-podman.sh). */
import { readFileSync } from 'node:fs';
import { containersConf } from './podman.js';

const file = containersConf();
process.stdout.write(`CONTAINERS_CONF=${file}\n${readFileSync(file, 'utf8')}`);
