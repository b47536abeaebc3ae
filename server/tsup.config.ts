import { defineConfig } from 'tsup';

// The server ships as plain ESM bundles; the shared contract (TypeScript source) is bundled in,
// every other dependency stays in node_modules.
export default defineConfig({
  entry: {
    main: 'src/main.ts',
    'demo-codes': 'src/demo/codes.cli.ts',
    'demo-reset': 'src/demo/reset.cli.ts',
    backup: 'src/backup/backup.cli.ts',
    restore: 'src/backup/restore.cli.ts',
    'files-move': 'src/files-move.cli.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: ['@attesta/contract'],
});
