import { describe, expect, it } from '@jest/globals';
import { docFiles, filesFromMarkdown } from './doc-files.js';
import { isolatedEnvironment, registryUnreachable } from './npm-install.js';
import type { Manifest } from './public-packages.js';
import { tarballName } from './public-packages.js';
import { entrySpecifiers } from './scratch-project.js';
import { tarballProblems } from './tarball-check.js';

const manifest: Manifest = {
  name: '@kevents/widgets',
  version: '0.1.0',
  description: 'Widgets',
  keywords: ['kubernetes'],
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://github.com/kevents/kevents.git', directory: 'packages/widgets' },
  engines: { node: '>=22.12' },
  files: ['dist', '!dist/**/*.test.*'],
  exports: {
    '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
    './testing': { types: './dist/testing/index.d.ts', import: './dist/testing/index.js' },
    './package.json': './package.json',
  },
  dependencies: { '@kevents/api': '^0.1.0', yaml: '^2.9.1' },
  peerDependencies: { '@jest/globals': '^30.0.0' },
  peerDependenciesMeta: { '@jest/globals': { optional: true } },
};
const entries = [
  'package.json',
  'README.md',
  'LICENSE',
  ...['index', 'testing/index'].flatMap((f) => [`dist/${f}.js`, `dist/${f}.js.map`, `dist/${f}.d.ts`]),
];
const publicNames = new Set(['@kevents/api', '@kevents/widgets']);

describe('tarballProblems', () => {
  it('finds nothing wrong with a complete tarball', () => {
    expect(tarballProblems(manifest, entries, publicNames)).toEqual([]);
  });

  it('reports a tarball without dist (the root .gitignore once kept it out)', () => {
    const problems = tarballProblems(manifest, ['package.json', 'README.md', 'LICENSE', 'src/index.ts'], publicNames);
    expect(problems).toEqual(
      expect.arrayContaining([
        'dist/index.d.ts is missing (exports["."].types)',
        'dist/index.js is missing (exports["."].import)',
        'dist/testing/index.js is missing (exports["./testing"].import)',
        'src/index.ts: sources in the tarball (dist carries inline source maps)',
      ]),
    );
  });

  it('reports tests, build files, missing maps and declarations, README and LICENSE', () => {
    const bad = [
      ...entries.filter((e) => e !== 'README.md' && e !== 'LICENSE' && e !== 'dist/index.js.map'),
      'dist/store.test.js',
      'tsconfig.json',
      'project.json',
      'dist/.tsbuildinfo',
      'dist/extra.js',
    ];
    expect(tarballProblems(manifest, bad, publicNames)).toEqual([
      'README.md is missing (what it is, install, an example, its API)',
      'LICENSE is missing (the license text)',
      'dist/index.js has no source map',
      'dist/store.test.js: a test in the tarball',
      'tsconfig.json: build configuration in the tarball',
      'project.json: build configuration in the tarball',
      'dist/.tsbuildinfo: build configuration in the tarball',
      'dist/extra.js has no source map',
      'dist/extra.js has no type declarations',
    ]);
  });

  it('reports manifests that are private, unlicensed, without engines, or that depend on siblings by "*"', () => {
    const m: Manifest = {
      ...manifest,
      private: true,
      license: undefined,
      engines: undefined,
      files: undefined,
      description: undefined,
      keywords: [],
      repository: undefined,
      dependencies: { '@kevents/api': '*', '@kevents/authn': '^0.1.0' },
      peerDependenciesMeta: {},
    };
    expect(tarballProblems(m, entries, publicNames)).toEqual([
      'the manifest says private',
      'license is undefined, not Apache-2.0',
      'no description',
      'no keywords',
      'no repository url and directory',
      'no engines.node lower bound',
      'files does not list dist',
      'depends on @kevents/api by "*", not a semver range',
      'depends on @kevents/authn, which is private',
      'peer @jest/globals is not marked optional',
    ]);
  });

  it('names tarballs as npm pack does and lists every entry point', () => {
    expect(tarballName(manifest)).toBe('kevents-widgets-0.1.0.tgz');
    expect(entrySpecifiers([{ dir: 'packages/widgets', manifest }])).toEqual([
      '@kevents/widgets',
      '@kevents/widgets/testing',
    ]);
  });
});

describe('docFiles', () => {
  it('takes the blocks headed by a path, with the words after it, and ignores the others', () => {
    const md = [
      'text',
      '```sh',
      'npm install',
      '```',
      '```ts src/a.ts',
      'export const a = 1;',
      '```',
      '```ts example.ts no-run',
      'await main();',
      '```',
    ].join('\n');
    expect(docFiles(md)).toEqual([
      { path: 'src/a.ts', text: 'export const a = 1;\n', words: [] },
      { path: 'example.ts', text: 'await main();\n', words: ['no-run'] },
    ]);
    expect(filesFromMarkdown(md).get('src/a.ts')).toBe('export const a = 1;\n');
  });

  it('refuses a path spelled out twice or leaving the project', () => {
    expect(() => docFiles('```ts a.ts\n1\n```\n```ts a.ts\n2\n```\n')).toThrow('a.ts is spelled out twice');
    expect(() => docFiles('```ts ../a.ts\n1\n```\n')).toThrow('not a relative path');
  });
});

describe('the npm environment of the scratch project', () => {
  it('tells an unreachable registry from other failures', () => {
    expect(
      registryUnreachable(
        'npm error code ENOTFOUND\nnpm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
      ),
    ).toBe('code ENOTFOUND');
    expect(registryUnreachable('npm error code E503\nnpm error 503 Service Unavailable')).toBe('code E503');
    expect(registryUnreachable('npm error code E404\nnpm error 404 Not Found - @kevents/nope')).toBeUndefined();
    expect(registryUnreachable('npm error code ERESOLVE')).toBeUndefined();
  });

  it('drops npm script settings, NODE_PATH and PATH entries inside the repository, and keeps the cache', () => {
    const env = isolatedEnvironment('/work/repo', {
      PATH: '/work/repo/node_modules/.bin:/usr/bin:/work/repo-other/bin',
      NODE_PATH: '/work/repo/node_modules',
      npm_config_local_prefix: '/work/repo',
      npm_package_name: 'kevents',
      npm_config_cache: '/home/me/.npm',
      HOME: '/home/me',
    });
    expect(env['NODE_PATH']).toBeUndefined();
    expect(env['npm_config_local_prefix']).toBeUndefined();
    expect(env['npm_package_name']).toBeUndefined();
    expect(env['npm_config_cache']).toBe('/home/me/.npm');
    expect(env['HOME']).toBe('/home/me');
    expect(env['PATH']!.split(':').slice(1)).toEqual(['/usr/bin', '/work/repo-other/bin']);
  });
});
