import { defineConfig } from 'vitest/config';

/**
 * The slow tier: tests that spawn other programs (the official SDK, server-everything, the CLI as a
 * process, npm pack, the conformance runner, an authorization server), run property or fuzz
 * campaigns, or wait on real timers for seconds. `npm test` runs everything else (the fast tier,
 * in process); `npm run test:slow` runs these; `npm run test:all` and `.ci/run` run both.
 */
const slowTests = [
  'tests/pack-install.test.ts',
  'tests/cli.test.ts',
  'tests/cli-metrics.test.ts',
  'tests/cli-gateway-metrics.test.ts',
  'tests/cli-everything.test.ts',
  'tests/conformance.test.ts',
  'tests/interop-*.test.ts',
  'tests/era-2026-client-*.test.ts',
  'tests/e2e.test.ts',
  'tests/jsdoc*.test.ts',
  'tests/http-subscriptions.test.ts',
  'tests/http-node-connections.test.ts',
  'tests/http-session-recovery.test.ts',
  'tests/http-client-resilience.test.ts',
  'tests/client-misbehaving-*.test.ts',
  'tests/fuzz-*.test.ts',
  'tests/deep-json.test.ts',
  'tests/auth-*.test.ts',
  'tests/cli-auth.test.ts',
  'tests/examples.test.ts',
  'tests/browser-*.test.ts',
  'tests/host-*.test.ts',
  'tests/era-2026-mrtr.test.ts',
  'tests/cluster*.test.ts',
  // Real child processes (the CLI from source, servers killed and restarted) and a property campaign.
  'tests/folder-cli.test.ts',
  'tests/folder-property.test.ts',
  'tests/guards-cli.test.ts',
  'tests/cli-dev.test.ts',
  'tests/cli-replay-host.test.ts',
  'tests/client-reconnect.test.ts',
  'packages/node/src/stdio/client.test.ts',
  'packages/schema/src/fastCheck.test.ts',
  'packages/core/src/jsonrpc/connection.property.test.ts',
];

const allTests = ['packages/*/src/**/*.test.ts', 'tests/**/*.test.ts'];

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
    globalSetup: ['tests/support/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // expect.poll waits for something a peer does; 1 s (vitest's default) is too short on a loaded
    // 2-core machine. A condition that holds ends the wait at once.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    projects: [
      // The fast tier shares a worker's module cache between files (isolate: false): importing the
      // packages once per worker instead of once per file halves its time. Tests must not rely on a
      // fresh module state; those that must (process-wide patches, timers) belong in the slow tier.
      { extends: true, test: { name: 'fast', include: allTests, exclude: slowTests, isolate: false } },
      { extends: true, test: { name: 'slow', include: slowTests } },
    ],
  },
});
