/**
 * The 2026-07-28 client scenarios of `@modelcontextprotocol/conformance` 0.2.0-alpha.12 (installed
 * as the npm alias `@modelcontextprotocol/conformance-next`), as `conformance client --requirements
 * 2026-07-28` scores them: 33 scenarios, 25 of them `auth/*`. `node conformance/run.mjs --revision
 * 2026-07-28` runs them one at a time with `--spec-version 2026-07-28`.
 */

/** The alias package and the alpha it is pinned to. */
export const NEXT_SUITE_PACKAGE = '@modelcontextprotocol/conformance-next';
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
  ...[
    'metadata-default',
    'metadata-var1',
    'metadata-var2',
    'metadata-var3',
    'basic-cimd',
    'scope-from-www-authenticate',
    'scope-from-scopes-supported',
    'scope-omitted-when-undefined',
    'scope-step-up',
    'scope-retry-limit',
    'token-endpoint-auth-basic',
    'token-endpoint-auth-post',
    'token-endpoint-auth-none',
    'pre-registration',
    'resource-mismatch',
    'offline-access-scope',
    'offline-access-not-supported',
  ].map((name) => `auth/${name}`),
  ...AUTH_2026_ONLY,
];
