import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Layers point one way: see docs/architecture.md, "Which way dependencies point". */
const depConstraints = [
  { sourceTag: 'type:api', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:metrics', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:cel', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:validation', onlyDependOnLibsWithTags: ['type:api', 'type:cel'] },
  { sourceTag: 'type:config', onlyDependOnLibsWithTags: ['type:api', 'type:cel', 'type:validation'] },
  { sourceTag: 'type:storage', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:managed-fields', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:storage-impl', onlyDependOnLibsWithTags: ['type:api', 'type:storage'] },
  { sourceTag: 'type:egress', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:auth', onlyDependOnLibsWithTags: ['type:api', 'type:cel', 'type:egress', 'type:metrics'] },
  { sourceTag: 'type:tracing', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:controller-runtime', onlyDependOnLibsWithTags: ['type:api'] },
  { sourceTag: 'type:cli', onlyDependOnLibsWithTags: ['type:api'] },
  {
    sourceTag: 'type:apiserver',
    onlyDependOnLibsWithTags: ['type:api', 'type:validation', 'type:storage', 'type:metrics', 'type:managed-fields'],
  },
  {
    sourceTag: 'scope:server',
    onlyDependOnLibsWithTags: [
      'type:api',
      'type:cel',
      'type:validation',
      'type:config',
      'type:storage',
      'type:storage-impl',
      'type:egress',
      'type:auth',
      'type:tracing',
      'type:apiserver',
      'type:metrics',
      'type:managed-fields',
      'type:cli',
    ],
  },
  { sourceTag: 'scope:controller', onlyDependOnLibsWithTags: ['type:api', 'type:controller-runtime', 'type:cli'] },
  // The web view runs in the browser and speaks only the public REST API: its bundle (src/main.tsx's graph) imports
  // no workspace package; its browser tests use the test kits of api (polling, free ports) and auth (an OIDC issuer).
  { sourceTag: 'scope:ui', onlyDependOnLibsWithTags: ['type:api', 'type:auth'] },
  { sourceTag: 'type:app', notDependOnLibsWithTags: ['type:app'] },
];

/**
 * The layers inside packages/apiserver/src, lowest first (docs/architecture.md, "The generic API
 * machinery"): a module imports only from its own layer or the ones before it. Tests may reach up.
 */
const apiserverLayers = [
  ['errors'],
  ['request', 'selectors', 'warning'],
  ['registry'],
  ['encoding'],
  ['watch'],
  ['scope'],
  ['table'],
  ['handlers', 'filters'],
  ['install'],
  ['discovery', 'openapi'],
  ['reviews', 'resources'],
  ['server'],
];
const apiserverLayerRules = apiserverLayers.slice(0, -1).map((layer, i) => {
  const above = apiserverLayers.slice(i + 1).flat();
  return {
    files: layer.map((dir) => `packages/apiserver/src/${dir}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${above.join('|')})/`,
              message: `packages/apiserver layers: ${layer.join(', ')} may not import from ${above.join(', ')}.`,
            },
          ],
        },
      ],
    },
  };
});

export default [
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      '.nx/**',
      'charts/**',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints, enforceBuildableLibDependency: false }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...apiserverLayerRules,
];
