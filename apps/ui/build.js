#!/usr/bin/env node
/**
 * Builds the web view with esbuild: src/main.tsx and src/app.css (uPlot's stylesheet included) bundled and
 * minified into dist/, with src/index.html beside them; then copies dist/ to apps/apiserver/dist/ui, where
 * kevents-apiserver serves it at /ui/ (and the apiserver's image ships it). Fixed file names (no hashes): the
 * apiserver serves exactly these three paths. Usage: node apps/ui/build.js
 */
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here('dist/');
const served = here('../apiserver/dist/ui/');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: here('src/main.tsx'), 'app-style': here('src/app.css') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  tsconfig: here('tsconfig.json'),
  entryNames: '[name]',
});
// esbuild names the CSS of the `app-style` entry app-style.css; the page links app.css.
cpSync(`${out}app-style.css`, `${out}app.css`);
rmSync(`${out}app-style.css`);
copyFileSync(here('src/index.html'), `${out}index.html`);
rmSync(served, { recursive: true, force: true });
mkdirSync(served, { recursive: true });
cpSync(out, served, { recursive: true });
if (process.argv.includes('--sizes'))
  for (const f of ['index.html', 'app.js', 'app.css']) console.log(f, statSync(`${out}${f}`).size);
