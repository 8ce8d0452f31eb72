/**
 * The conformance client: what the official suite runs for its client scenarios, built on
 * mcpkit's own `McpClient` and Streamable HTTP transport, public API only. It serves both suites:
 * `@modelcontextprotocol/conformance` 0.1.16 (2025-11-25) and 0.2.0-alpha.12 (2026-07-28, which
 * passes `MCP_CONFORMANCE_PROTOCOL_VERSION`). The client is left to find the era itself
 * (`protocolEra: 'auto'`): a 2026-07-28 mock answers its `server/discover` probe, a 2025 one does
 * not. See conformance/FIXTURES.md §5–6.
 *
 *   MCP_CONFORMANCE_SCENARIO=tools_call npm run --silent conformance:client -- http://localhost:3000/mcp
 *
 * The suite appends the server URL, so it is the last argument. Exits 0 when the scenario's job is
 * done, 1 on any error, 2 for an unknown scenario or a missing URL.
 */
import { importSigningKey, type OAuthClientOptions, OAuthClientProvider } from '@mcpkit/auth/client';
import { McpClient } from '@mcpkit/client';
import {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from '@mcpkit/client/http';
import { AUTH_CLIENT_SCENARIOS } from './auth-scenarios.mjs';
import { AUTH_2026_ONLY } from './next-scenarios.mjs';

/** Ends the run well before the suite's own 30 s limit, so a hang shows up as our error. */
const WATCHDOG_MS = 25_000;
const CLIENT_INFO = { name: 'mcpkit-conformance-client', version: '1.0.0' } as const;

type Scenario = (url: string) => Promise<void>;

function log(message: string): void {
  console.error(`[client] ${message}`);
}

/**
 * Connects `client` over Streamable HTTP, runs `work`, and always closes. Transport trouble the
 * client can only report (a refused standalone GET or DELETE, which the suite's mocks answer with
 * 400/404/405) is logged, not fatal: the requests themselves say whether the scenario worked.
 */
async function session(
  client: McpClient,
  url: string,
  work: () => Promise<void>,
  options: StreamableHttpClientTransportOptions = {},
): Promise<void> {
  const transport = new StreamableHttpClientTransport(url, options);
  const result = await client.connect(transport);
  log(
    `connected to ${result.serverInfo.name} ${result.serverInfo.version}, protocol ${client.protocolVersion} (era ${client.era})`,
  );
  try {
    await work();
  } finally {
    await client.close();
  }
}

function newClient(options: ConstructorParameters<typeof McpClient>[1] = {}): McpClient {
  return new McpClient(CLIENT_INFO, {
    onError: (error) => log(`(reported) ${error.message}`),
    protocolEra: 'auto',
    ...options,
  });
}

/** Handshake, a tool listing if the server has tools (this mock declares none), close. */
const initialize: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    if (!client.serverCapabilities?.tools) return;
    const { tools } = await client.listTools();
    log(`${tools.length} tool(s) listed`);
  });
};

/** Lists the tools and calls `add_numbers`. */
const toolsCall: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    // tools() caches the list, which callTool consults for an outputSchema: one tools/list only.
    const tools = await client.tools();
    if (!tools.some((tool) => tool.name === 'add_numbers'))
      throw new Error('the server lists no add_numbers');
    const result = await client.callTool('add_numbers', { a: 2, b: 3 });
    if (result.isError) throw new Error(`add_numbers failed: ${JSON.stringify(result.content)}`);
    log(`add_numbers: ${JSON.stringify(result.content)}`);
  });
};

/**
 * Accepts the form without filling anything in: the client library adds the schema's defaults
 * (SEP-1034), which is what the scenario checks.
 */
const elicitationDefaults: Scenario = async (url) => {
  const client = newClient({
    elicitation: {
      form: (params) => {
        log(`elicitation: "${params.message}", accepting with no fields filled in`);
        return { action: 'accept', content: {} };
      },
    },
  });
  await session(client, url, async () => {
    const result = await client.callTool('test_client_elicitation_defaults');
    log(`test_client_elicitation_defaults: ${JSON.stringify(result.content)}`);
  });
};

/**
 * Calls `test_reconnection`, whose answer stream the server ends early: the transport must
 * reconnect by GET with `Last-Event-ID` after the server's `retry:` delay and get the result there.
 *
 * No standalone GET stream: the scenario needs none, and the mock judges the delay of the *last*
 * GET it received. The standalone GET is opened in the background after the handshake; had it
 * reached the mock after `tools/call` (only a scheduling accident on a loaded machine could do
 * that), the mock would answer the call on it and the run would be judged "reconnected too early".
 */
const sseRetry: Scenario = async (url) => {
  const client = newClient();
  const work = async () => {
    await client.tools();
    const result = await client.callTool('test_reconnection');
    log(`test_reconnection: ${JSON.stringify(result.content)}`);
  };
  await session(client, url, work, { openGetStream: false });
};

// ---------------------------------------------------------------------------------------------
// Auth scenarios: the suite's mock authorization server approves at once, redirecting the
// authorization request straight to the redirect URI with a code; the "user" below follows it.

const REDIRECT_URI = 'http://localhost:3000/callback';
/** The suite's client metadata document URL (auth/basic-cimd expects exactly this client_id). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** What the suite passes in MCP_CONFORMANCE_CONTEXT for the scenarios that need credentials. */
interface AuthContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
}

function authContext(): AuthContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? (JSON.parse(raw) as AuthContext) : {};
}

/** The user's browser: opens the authorization URL and hands back where it redirects to. */
async function approve(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location)
    throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

/** Connects with `auth`, lists the tools and calls each one, so protected calls (and step-ups) happen. */
async function authorizedSession(url: string, options: Omit<OAuthClientOptions, 'serverUrl'>): Promise<void> {
  const authProvider = new OAuthClientProvider({ serverUrl: url, ...options });
  const client = newClient();
  await session(
    client,
    url,
    async () => {
      const tools = await client.tools();
      for (const tool of tools) {
        const result = await client.callTool(tool.name, {});
        log(`${tool.name}: ${JSON.stringify(result.content)}`);
      }
    },
    { authProvider, openGetStream: false },
  );
}

/** Authorization code + PKCE; pre-registered credentials when the suite gives some, else CIMD or DCR. */
const authorizationCode: Scenario = async (url) => {
  const context = authContext();
  await authorizedSession(url, {
    redirectUri: REDIRECT_URI,
    redirect: approve,
    clientMetadataUrl: CIMD_URL,
    clientMetadata: { client_name: CLIENT_INFO.name },
    ...(context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : {}),
  });
};

/** Client credentials with a client secret (basic) or a signed JWT assertion (private_key_jwt). */
const clientCredentials: Scenario = async (url) => {
  const context = authContext();
  if (!context.client_id) throw new Error('the suite gave no client_id');
  const privateKey = context.private_key_pem
    ? await importSigningKey(context.private_key_pem, context.signing_algorithm ?? 'ES256')
    : undefined;
  await authorizedSession(url, {
    grant: 'client_credentials',
    clientId: context.client_id,
    clientSecret: context.client_secret,
    ...(privateKey ? { privateKey, tokenEndpointAuthMethod: 'private_key_jwt' as const } : {}),
  });
};

/** Cross-app access: token exchange of the IdP's ID token, then the JWT-bearer grant. */
const crossAppAccess: Scenario = async (url) => {
  const c = authContext();
  if (!c.client_id || !c.idp_issuer || !c.idp_token_endpoint || !c.idp_client_id || !c.idp_id_token) {
    throw new Error('the suite gave no cross-app access context');
  }
  const idToken = c.idp_id_token;
  await authorizedSession(url, {
    grant: 'cross_app',
    clientId: c.client_id,
    clientSecret: c.client_secret,
    tokenEndpointAuthMethod: 'client_secret_basic',
    crossApp: {
      idp: { issuer: c.idp_issuer, token_endpoint: c.idp_token_endpoint },
      idpClientId: c.idp_client_id,
      idToken: () => idToken,
    },
  });
};

// ---------------------------------------------------------------------------------------------
// 2026-07-28 scenarios (suite 0.2.0-alpha.12)

/** Answers every kind of input a server may ask for, so each capability is declared. */
function answeringClient(): McpClient {
  return newClient({
    elicitation: {
      form: (params) => {
        log(`elicitation: "${params.message}", accepting`);
        return { action: 'accept', content: { confirmed: true } };
      },
    },
    sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'conformance' }),
    roots: [{ uri: 'file:///conformance', name: 'conformance' }],
  });
}

/** The envelope on every request, and a retry with a supported version after `-32022`. */
const requestMetadata: Scenario = async (url) => {
  const client = answeringClient();
  await session(client, url, async () => {
    // This mock declares no capability: a ping (server/discover under 2026-07-28) is the request.
    if (!client.serverCapabilities?.tools) return client.ping();
    const { tools } = await client.listTools();
    log(`${tools.length} tool(s) listed`);
  });
};

/** Input-required rounds: state echoed, no state invented, nothing carried to another call. */
const mrtrRequestState: Scenario = async (url) => {
  const client = answeringClient();
  await session(client, url, async () => {
    await client.tools();
    for (const name of [
      'test_mrtr_echo_state',
      'test_mrtr_no_state',
      'test_mrtr_unrelated',
      'test_mrtr_no_result_type',
    ]) {
      const result = await client.callTool(name);
      log(`${name}: ${JSON.stringify(result.content)}`);
    }
  });
};

/** Mcp-Method and Mcp-Name on everything the client sends. */
const standardHeaders: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    for (const tool of await client.tools()) await client.callTool(tool.name);
    for (const resource of await client.resources()) await client.readResource(resource.uri);
    for (const prompt of await client.prompts()) await client.getPrompt(prompt.name);
  });
};

/** The calls the suite names in its context, whose x-mcp-header arguments become Mcp-Param-*. */
const customHeaders: Scenario = async (url) => {
  const { toolCalls = [] } = authContext() as {
    toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  };
  const client = newClient();
  await session(client, url, async () => {
    await client.tools();
    for (const call of toolCalls) {
      const result = await client.callTool(call.name, call.arguments);
      log(`${call.name}: ${JSON.stringify(result.content)}`);
    }
  });
};

/** Calls every tool the client kept: those with invalid x-mcp-header annotations were left out. */
const invalidToolHeaders: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    const tools = await client.tools();
    log(`kept ${tools.map((tool) => tool.name).join(', ')}`);
    for (const tool of tools) await client.callTool(tool.name, { region: 'us-west1' });
  });
};

/** Lists tools whose inputSchema has a network `$ref`; nothing dereferences it. */
const refNoDeref: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    log(`${(await client.tools()).length} tool(s) listed`);
  });
};

/** Sends the focal tool's inputSchema back verbatim through the echo tool. */
const schemaPreservation: Scenario = async (url) => {
  const client = newClient();
  await session(client, url, async () => {
    const tools = await client.tools();
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server lists no json_schema_2020_12_tool');
    const result = await client.callTool('json_schema_echo', { schema: focal.inputSchema });
    log(`json_schema_echo: ${JSON.stringify(result.content)}`);
  });
};

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  ...Object.fromEntries(
    [...AUTH_CLIENT_SCENARIOS, ...AUTH_2026_ONLY].map((name) => [name, authorizationCode]),
  ),
  'auth/client-credentials-jwt': clientCredentials,
  'auth/client-credentials-basic': clientCredentials,
  'auth/cross-app-access-complete-flow': crossAppAccess,
  // Suite 0.2.0-alpha.12's name for the same flow, as the enterprise-managed-authorization extension.
  'auth/enterprise-managed-authorization': crossAppAccess,
  initialize,
  tools_call: toolsCall,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
  'request-metadata': requestMetadata,
  'sep-2322-client-request-state': mrtrRequestState,
  'http-standard-headers': standardHeaders,
  'http-custom-headers': customHeaders,
  'http-invalid-tool-headers': invalidToolHeaders,
  'json-schema-ref-no-deref': refNoDeref,
  'json-schema-2020-12-preservation': schemaPreservation,
};

async function main(): Promise<number> {
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = process.argv.at(-1);
  const scenario = Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
  if (!scenario) {
    log(`unknown scenario "${name}" (known: ${Object.keys(SCENARIOS).join(', ')})`);
    return 2;
  }
  if (url === undefined || !URL.canParse(url)) {
    log('usage: client.ts <server-url> (the last argument)');
    return 2;
  }
  log(`scenario ${name} against ${url}`);
  await scenario(url);
  log('done');
  return 0;
}

const watchdog = setTimeout(() => {
  log(`gave up after ${WATCHDOG_MS} ms`);
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

// process.exit rather than waiting for the event loop: pooled keep-alive sockets must not delay the exit.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
