import { defineConfig } from 'vitest/config';

// Tests run against TypeScript sources through the "@mcpkit/source" export condition (namespaced: other packages ship a plain "source" condition),
// so no build is needed between an edit and a test run.
export default defineConfig({
  resolve: { conditions: ['@mcpkit/source', 'import', 'default'] },
  ssr: {
    // Vitest hands these to Node as --conditions for external packages too: an 'import' there makes
    // require() load a dual package's ESM entry (Express's router then breaks), and Vite adds
    // 'import'/'require' per importer by itself.
    resolve: {
      conditions: ['@mcpkit/source', 'node', 'development|production'],
      externalConditions: ['@mcpkit/source'],
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/support/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
