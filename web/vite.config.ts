/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The contract package ships TypeScript source; pointing straight at it keeps `vite build`,
// the dev server and vitest on the same file without relying on the workspace symlink.
const contractEntry = fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    // Installable PWA (docs/design.md §5): the service worker precaches the app shell, so a reload
    // while offline still opens the runner; the runner keeps its own copy of the sitting and the
    // variant (lib/runner-snapshot.ts) and its outbox in IndexedDB. No API call is ever cached here.
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
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//i],
        cleanupOutdatedCaches: true,
        // Take charge of the open page at once: a participant signs in and starts without a reload.
        clientsClaim: true,
      },
    }),
  ],
  resolve: {
    alias: { '@attesta/contract': contractEntry },
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
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Above the 5 s a findBy… may wait (src/test/setup.ts), so a failure names what was missing.
    testTimeout: 15_000,
  },
});
