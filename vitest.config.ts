import { defineConfig } from 'vitest/config';

// Tests run against TypeScript sources through the "source" export condition,
// so no build is needed between an edit and a test run.
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'import', 'default'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
