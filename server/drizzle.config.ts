import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/db/schema and committed (never `push`).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  casing: 'snake_case',
});
