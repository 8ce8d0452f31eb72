/**
 * The 2026-07-28 client scenarios of `@modelcontextprotocol/conformance` 0.2.0-alpha.12 (installed
 * as the npm alias `conformance-next`), as `conformance client --requirements
 * 2026-07-28` scores them: 33 scenarios, 25 of them `auth/*`. `node conformance/run.mjs --revision
 * 2026-07-28` runs them one at a time with `--spec-version 2026-07-28`.
 */

import { AUTH_CLIENT_SCENARIOS } from './auth-scenarios.mjs';

/** The alias package and the alpha it is pinned to. */
export const NEXT_SUITE_PACKAGE = 'conformance-next';
export const NEXT_SUITE_VERSION = '0.2.0-alpha.12';

/** `auth/*` scenarios that 2026-07-28 adds to those the 0.1.16 list has. */
export const AUTH_2026_ONLY = [
  'authorization-server-migration',
  'iss-supported',
  'iss-not-advertised',
  'iss-supported-missing',
  'iss-wrong-issuer',
  'iss-unexpected',
  'iss-normalized',
  'metadata-issuer-mismatch',
].map((name) => `auth/${name}`);

/** The 0.1.16 `auth/*` scenarios 2026-07-28 does not require (2025-03-26 ones, extensions). */
const NOT_REQUIRED_IN_2026 = new Set([
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
]);

/** Every client scenario the alpha requires for 2026-07-28. */
export const CLIENT_SCENARIOS_2026 = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
  ...AUTH_CLIENT_SCENARIOS.filter((name) => !NOT_REQUIRED_IN_2026.has(name)),
  ...AUTH_2026_ONLY,
];

/**
 * Extension scenarios of the alpha that `--requirements 2026-07-28` does not list but mcpkit
 * implements, run beside the required ones: SEP-990 enterprise-managed authorization (token
 * exchange at the IdP, then the JWT-bearer grant), 0.1.16's `auth/cross-app-access-complete-flow`
 * under its extension name.
 */
export const EXTENSION_CLIENT_SCENARIOS_2026 = ['auth/enterprise-managed-authorization'];
