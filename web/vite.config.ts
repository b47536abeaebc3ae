import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { configDefaults } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The contract package ships TypeScript source; pointing straight at it keeps `vite build`,
// the dev server and vitest on the same file without relying on the workspace symlink.
const contractEntry = fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url));

/**
 * React Router's build without its development warnings. Its package's `exports` name only
 * `dist/development/` (with `ENABLE_DEV_WARNINGS = true` and the warnings' texts), so a production
 * build would ship those; the package also has `dist/production/index.mjs`, the same API with the
 * warnings off, which the build takes instead (docs/BENCHMARKS.md, issue 24). Tests and the dev
 * server keep the development build and its warnings.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/**
 * The files of the participant's shell: the entry chunk with every chunk and stylesheet it imports
 * statically (index.html lists them) and the participant's own lazily loaded chunks
 * (PARTICIPANT_LAZY) with theirs, which is all the login page, the start page and the runner load
 * (e2e/weight.e2e.test.ts). Filled when the bundle is written, read by the service worker's
 * precache list below, so a new device's precache is the exam's files and not the whole portal.
 */
const participantShell = new Set<string>();

/**
 * The participant's chunks the router and the login form load after the first paint: the start
 * page with the runner (app/router.tsx) and the login forms' checks. Part of the shell all the same
 * (precached, so the runner opens offline).
 */
const PARTICIPANT_LAZY = [
  'src/features/exam-runner/participant-screens.ts',
  'src/features/auth/login-checks.ts',
];

/**
 * Modules the participant's lazily loaded chunks (PARTICIPANT_LAZY) import statically, found when
 * the module graph is complete and read by the `participant` chunk group below: they make one
 * chunk (with their CSS), not one small chunk per module shared with some staff page.
 */
const participantModules = new Set<string>();

function participantShellPlugin(): Plugin {
  return {
    name: 'attesta:participant-shell',
    apply: 'build',
    buildEnd() {
      participantModules.clear();
      // The contract's index re-exports every module: a name imported through it is followed to
      // the module that declares it, not to all of them (CALL_SCHEMAS's modules stay out).
      const declaredIn = new Map<string, string>();
      for (const id of this.getModuleIds()) {
        if (!id.includes('/packages/contract/src/') || id === contractEntry) continue;
        for (const name of this.getModuleInfo(id)?.exports ?? []) declaredIn.set(name, id);
      }
      /** Every module `from` imports statically (libraries but zod left out), into `into`. */
      const reach = (from: string, into: Set<string>, skip: ReadonlySet<string>) => {
        const visit = (id: string) => {
          // Libraries stay where the bundler puts them (a library's index would bring all of its
          // modules into the group), but zod: all of it is needed, in the participant's chunk.
          if (into.has(id) || skip.has(id)) return;
          if (id.includes('/node_modules/') && !id.includes('/node_modules/zod/')) return;
          into.add(id);
          const info = this.getModuleInfo(id);
          for (const imported of info?.importedIds ?? []) {
            if (imported !== contractEntry) visit(imported);
          }
          if (!info?.importedIds.includes(contractEntry)) return;
          for (const m of (info.code ?? '').matchAll(
            /import\s*\{([^}]*)\}\s*from\s*["']@attesta\/contract["']/g,
          )) {
            for (const name of m[1]!.split(',').map((n) =>
              n
                .trim()
                .split(/\s+as\s+/)[0]!
                .trim(),
            )) {
              const declaring = declaredIn.get(name);
              if (declaring) visit(declaring);
            }
          }
        };
        visit(from);
      };
      // What the entry imports is the shell's (the `shell` group), not the participant's chunk.
      const initial = new Set<string>();
      for (const id of this.getModuleIds()) {
        if (this.getModuleInfo(id)?.isEntry) reach(id, initial, new Set());
      }
      for (const id of this.getModuleIds()) {
        if (PARTICIPANT_LAZY.some((module) => id.replace(/\\/g, '/').endsWith(module)))
          reach(id, participantModules, initial);
      }
    },
    generateBundle(_, bundle) {
      participantShell.clear();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || participantShell.has(fileName)) return;
        participantShell.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) participantShell.add(css);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const ids = Object.keys(chunk.modules).map((id) => id.replace(/\\/g, '/'));
        if (chunk.isEntry || ids.some((id) => PARTICIPANT_LAZY.some((module) => id.endsWith(module))))
          visit(chunk.fileName);
      }
    },
  };
}

/**
 * Test files that keep a fresh worker of their own: they replace a module with `vi.mock` (which
 * would leak into the files after them in a shared worker) or test a module's first state
 * (lib/i18n.test.ts compares the locale objects, which the bundles that features register on the
 * app's i18n instance extend: lib/i18n.ts hands Russian's object to i18next, which writes into it).
 */
const ISOLATED = [
  'src/features/feedback/feedback-offline.test.tsx',
  'src/features/expert/workspace.test.tsx',
  'src/lib/i18n.test.ts',
];

const require = createRequire(import.meta.url);
/** Where Mantine's stylesheets are: one `<Component>.layer.css` per component, in `@layer mantine`. */
const fullSheet = readFileSync(require.resolve('@mantine/core/styles.layer.css'), 'utf8');
const mantineStyles = join(dirname(require.resolve('@mantine/core/styles.layer.css')), 'styles');

/**
 * Mantine's stylesheet for the participant's shell: the base sheets and the sheet of each Mantine
 * component the shell's chunks contain (found in the bundle, so a component added to the runner
 * brings its styles), linked from index.html. The whole sheet (33 kB compressed) comes with the
 * first lazily loaded page (components/ui/lazy-page.ts), never on the exam's path. All of it is in
 * `@layer mantine`, so the app's own rules win over Mantine's whichever loaded first.
 */
function mantineShellStylesPlugin(): Plugin {
  let fileName: string | undefined;
  return {
    name: 'attesta:mantine-shell-styles',
    apply: 'build',
    generateBundle(_, bundle) {
      const components = new Set<string>();
      for (const name of participantShell) {
        const chunk = bundle[name];
        if (chunk?.type !== 'chunk') continue;
        for (const id of Object.keys(chunk.modules)) {
          const component = /@mantine[\\/]core[\\/]esm[\\/]components[\\/]([^\\/]+)[\\/]/.exec(id)?.[1];
          if (component) components.add(component);
        }
      }
      const sheets = [
        'baseline',
        'default-css-variables',
        'global',
        ...[...components]
          .filter((c) => existsSync(join(mantineStyles, `${c}.layer.css`)))
          .map((c) => {
            const body = readFileSync(join(mantineStyles, `${c}.layer.css`), 'utf8').replace(
              /^@layer mantine \{/,
              '',
            );
            return { c, at: fullSheet.indexOf(body.slice(0, 200)) };
          })
          .sort((a, b) => a.at - b.at)
          .map(({ c }) => c),
      ];
      const files = sheets.map((sheet) => join(mantineStyles, `${sheet}.layer.css`));
      const source = files.map((file) => readFileSync(file, 'utf8')).join('\n');
      fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'mantine-shell.css', source }));
      participantShell.add(fileName);
    },
    transformIndexHtml: {
      order: 'post',
      handler: () =>
        fileName
          ? [
              {
                tag: 'link',
                attrs: { rel: 'stylesheet', crossorigin: true, href: `/${fileName}` },
                injectTo: 'head',
              },
            ]
          : [],
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    participantShellPlugin(),
    mantineShellStylesPlugin(),
    // Installable PWA (docs/design.md §5): the service worker precaches the participant's shell
    // (participantShell above: login, start page, runner), so a reload while offline still opens
    // the runner; the runner keeps its own copy of the sitting and the variant
    // (lib/runner-snapshot.ts) and its outbox in IndexedDB. Every other chunk (staff screens,
    // KaTeX and its fonts) is cached when first loaded, not before. No API call is ever cached.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Attesta — онлайн-диагностики и тестирование',
        short_name: 'Attesta',
        lang: 'ru',
        start_url: '.',
        scope: '.',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#0f6c97',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html}'],
        // Workbox's runtime inside sw.js rather than a second script the worker imports: one
        // download fewer for a new device (e2e/weight.e2e.test.ts).
        inlineWorkboxRuntime: true,
        // Outside assets/: index.html and registerSW.js (the icon and the manifest come by includeAssets).
        manifestTransforms: [
          (entries) => ({
            manifest: entries.filter((e) => !e.url.startsWith('assets/') || participantShell.has(e.url)),
            warnings: [],
          }),
        ],
        // Hashed files never change under their name: once loaded (a staff page, KaTeX when a task
        // has a formula) they are served from this cache, also offline.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.includes('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'assets', expiration: { maxEntries: 300 } },
          },
        ],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//i],
        cleanupOutdatedCaches: true,
        // Take charge of the open page at once: a participant signs in and starts without a reload.
        clientsClaim: true,
      },
    }),
  ],
  resolve: {
    alias: {
      '@attesta/contract': contractEntry,
      ...(command === 'build' ? { 'react-router': reactRouterProduction } : {}),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // The contract's modules only declare schemas and constants: what the client does not use is
      // left out, and every call's schemas (CALL_SCHEMAS) stay in the chunk `call()` loads on demand.
      treeshake: {
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/src/'),
      },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          // React changes least and every page needs it: one chunk of its own stays cached across
          // releases. Everything else is split by where it is used, so a library only staff pages
          // use (Mantine's tables and menus, tiptap, recharts, pdf.js, KaTeX) never reaches the
          // participant's path (docs/BENCHMARKS.md, «The participant's path»).
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              tags: ['$initial'],
              priority: 20,
            },
            {
              name: 'vendor',
              test: /node_modules[\\/]/,
              tags: ['$initial'],
              priority: 10,
            },
            {
              name: 'shell',
              tags: ['$initial'],
              priority: 5,
            },
            // The start page and the runner with what they import (zod and the contract's task
            // schemas too), in one chunk loaded after the login page's first paint.
            {
              name: 'participant',
              test: (id: string) => participantModules.has(id),
              priority: 4,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // Above the 10 s a findBy… may wait (src/test/setup.ts), so a failure names what was missing.
    testTimeout: 20_000,
    // Test files run one after another in a worker that keeps its modules (`isolate: false`: React,
    // Mantine, TanStack Query and the app are imported once, not once a file: the whole suite took
    // 194 s of CPU instead of 539 s, measured back to back on a loaded machine), so what a file leaves behind (the DOM, storage, cookies, IndexedDB, the
    // language, toasts, timers, the URL) is reset by src/test/setup.ts before the next one. A file
    // that replaces a module (`vi.mock`) or tests a module's first state keeps a fresh worker.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...ISOLATED, ...configDefaults.exclude],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
}));
