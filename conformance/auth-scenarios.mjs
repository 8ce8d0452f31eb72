/**
 * The 22 auth client scenarios of suite 0.1.16, shared by run.mjs (what to run) and client.ts
 * (routes; every one not routed to a machine-to-machine flow runs the authorization code flow).
 */
export const AUTH_CLIENT_SCENARIOS = [
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
  '2025-03-26-oauth-metadata-backcompat',
  '2025-03-26-oauth-endpoint-fallback',
  'resource-mismatch',
  'offline-access-scope',
  'offline-access-not-supported',
  'client-credentials-jwt',
  'client-credentials-basic',
  'cross-app-access-complete-flow',
].map((name) => `auth/${name}`);
