/**
 * Vitest global setup: says once, before any test runs, whether the official MCP schemas are here.
 *
 * A fresh clone without `../shared` beside it still gets a green `npm test`: the checks against
 * the official schemas are skipped and this one line says what is missing and how to get it. On CI
 * (`CI` or `MCPKIT_REQUIRE_SCHEMAS` set) a missing schema fails the whole run instead, so a skip can
 * never pass for a pass there.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['tests/support/globalSetup.ts'] } });
 * ```
 * @module
 */
import { officialSchemaAvailable, officialSchemaRequired, officialSchemaRoot } from './officialSchema.js';

/** What a person who has no schemas needs to know to get them. */
const WHERE_SCHEMAS_COME_FROM =
  'They are the JSON Schemas the MCP specification publishes, in the folder schema/ of the repository ' +
  'github.com/modelcontextprotocol/modelcontextprotocol (schema/<revision>/schema.json, and for 2026-07-28 ' +
  'also schema/2026-07-28/examples/). Copy that folder to ../shared/spec beside this checkout, or point ' +
  'MCPKIT_SPEC_DIR at it: MCPKIT_SPEC_DIR=/path/to/modelcontextprotocol/schema npm test';

/**
 * Runs once before the suite.
 *
 * @example
 * ```ts
 * setup(); // throws on CI when the schemas are missing
 * ```
 */
export default function setup(): void {
  if (officialSchemaAvailable()) return;
  const what = `official MCP schemas not found in ${officialSchemaRoot} (expected <revision>/schema.json for each revision)`;
  if (officialSchemaRequired()) {
    throw new Error(`${what}: CI must have the shared/ folder beside the checkout`);
  }
  process.stderr.write(
    `\n[mcpkit tests] ${what}: the official-schema checks are SKIPPED. ${WHERE_SCHEMAS_COME_FROM}\n\n`,
  );
}
