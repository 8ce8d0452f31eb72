/**
 * `--import` preload that lets plain Node 20 run the TypeScript conformance fixtures
 * (`fixture-server.ts`, `client.ts`) straight from source, with no build step:
 *
 *   node --import ./conformance/register-ts.mjs conformance/fixture-server.ts --port 3000
 *
 * The hooks (ts-hooks.mjs) resolve `@mcpkit/*` through their `source` export condition, the way
 * vitest and tsc do, map NodeNext-style `./x.js` imports inside TypeScript files to `./x.ts`, and
 * strip types with esbuild (a devDependency). So the suite exercises the code in the working tree,
 * and a stale `dist/` can never produce a misleading result.
 */
import { register } from 'node:module';

// Stack traces from the fixtures should point at the .ts lines (esbuild emits inline maps).
process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
