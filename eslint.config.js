import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const dirsOf = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const webFeatures = dirsOf('./web/src/features/');
const serverModules = dirsOf('./server/src/modules/');

/**
 * Web layers (bulletproof-react): a feature imports neither another feature nor app/; the shared
 * layers (components, lib, locales) import no feature and not app/. Checked on resolved paths, so
 * `../../monitoring/x` from a feature is caught as surely as `features/monitoring/x`.
 */
const webBoundaries = [
  ...webFeatures.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: [
      './web/src/app',
      ...webFeatures.filter((f) => f !== feature).map((f) => `./web/src/features/${f}`),
    ],
    message:
      'features never import each other or app/: compose them in app/, share through components/ or lib/',
  })),
  {
    target: ['./web/src/components', './web/src/lib', './web/src/locales'],
    from: ['./web/src/features', './web/src/app'],
    message: 'shared layers (components, lib, locales) never import a feature or app/',
  },
];

/**
 * Server modules (docs/ARCHITECTURE.md): a module reaches another only through its public face
 * (`index.ts`), and routes call services, never repositories. server/test/module-graph.test.ts
 * also proves there is no cycle.
 */
const modulesDir = fileURLToPath(new URL('./server/src/modules', import.meta.url));
const serverBoundaries = [
  // One zone per module, its `from` a glob of every other module (not `modules/index.ts`) and the
  // exception a glob of the modules' index.ts: the same rule as a zone per pair of modules (1,056
  // zones), a little cheaper (each pair's exception path was checked for every file).
  ...serverModules.map((module) => ({
    target: `./server/src/modules/${module}`,
    from: `${modulesDir}/!(${module}|index.ts)/**`,
    except: [`${modulesDir}/*/index.ts`],
    message: 'another module is reached through its index.ts (its public face), never its inner files',
  })),
  {
    target: './server/src/modules/**/*.routes.ts',
    from: './server/src/modules/**/*.repo.ts',
    message: 'routes call services, never repositories',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'server/drizzle/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: fileURLToPath(new URL('.', import.meta.url)), zones: serverBoundaries },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      // basePath: zones are relative to this file, whatever the working directory of the lint run.
      'import-x/no-restricted-paths': [
        'error',
        { basePath: fileURLToPath(new URL('.', import.meta.url)), zones: webBoundaries },
      ],
      // A lazily loaded page or panel comes with Mantine's whole stylesheet (the participant's shell
      // has only its own components' sheets): lazyPage() does both.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['lazy'],
              message:
                'Use lazyPage() from components/ui/lazy-page: it loads the full Mantine stylesheet too.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/components/ui/lazy-page.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
