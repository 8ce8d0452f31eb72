/**
 * Scopes per item, sessions and tasks bound to their principal, and `ctx.authInfo` in every
 * handler: an mcpkit server wrapped with `protect()` and guarded by `requireScopes()`, a real
 * `oidc-provider` on loopback, and the mcpkit client with `OAuthClientProvider`.
 */
import { MemoryTokenStore, OAuthClientProvider } from '@mcpkit/auth/client';
import {
  INSUFFICIENT_SCOPE,
  InsufficientScopeError,
  jwtVerifier,
  protect,
  requireScopes,
} from '@mcpkit/auth/server';
import { callToolAsTask, getTask, getTaskResult, McpClient, type McpClientOptions } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type AuthInfo, type CallToolResult, createInMemoryPair, McpError } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { createLegacySseHandler, createStreamableHttpHandler } from '@mcpkit/server/http';
import { TaskManager } from '@mcpkit/server/tasks';
import { beforeAll, describe, expect, it } from 'vitest';
import { browser, useAuthServer } from './support/authServer.js';

const REDIRECT = 'http://127.0.0.1/callback';
const CLIENT_ID = 'https://client.test/scopes-client.json';
const { as: fixture, cleanups } = useAuthServer();
beforeAll(() => {
  fixture().documents.set(CLIENT_ID, {
    client_id: CLIENT_ID,
    client_name: 'scopes test',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    grant_types: ['authorization_code', 'refresh_token'],
  });
});

const scopes = requireScopes({
  tools: { write_note: ['mcp:write'] },
  prompts: { draft: ['mcp:write'] },
  resources: { 'notes://private/{id}': ['mcp:write'], 'notes://audit': ['mcp:write'] },
});

/** Who each handler saw, as `<kind>:<sub>`. */
type Seen = string[];

function notesServer(seen: Seen): McpServer {
  const server = new McpServer(
    { name: 'notes', version: '1.0.0' },
    { resources: resourceSupport, prompts: promptSupport, tasks: new TaskManager() },
  );
  const who = (kind: string, auth: AuthInfo | undefined) => {
    seen.push(`${kind}:${String(auth?.extra?.sub)}`);
    return String(auth?.extra?.sub);
  };
  server.tool('whoami', (_args, ctx) => who('tool', ctx.authInfo));
  server.tool('write_note', { execution: { taskSupport: 'optional' } }, (_args, ctx) =>
    who('write', ctx.authInfo),
  );
  server.prompt('draft', {}, (_args, ctx) => who('prompt', ctx.authInfo));
  server.prompt(
    'open',
    { arguments: [{ name: 'topic' }], complete: { topic: (_v, _c, ctx) => [who('complete', ctx.authInfo)] } },
    (_args, ctx) => who('prompt', ctx.authInfo),
  );
  server.resource('notes://public', (_uri, ctx) => who('resource', ctx.authInfo));
  server.resource('notes://audit', () => 'audit');
  server.resourceTemplate('notes://private/{id}', { name: 'private' }, (_uri, _vars, ctx) =>
    who('template', ctx.authInfo),
  );
  server.use(scopes);
  return server;
}

async function startNotes(seen: Seen = [], maxBodyBytes?: number) {
  const mcp = createStreamableHttpHandler(notesServer(seen));
  let resource = '';
  const served = await serve((request: Request) => guarded(request));
  cleanups.push(async () => {
    await mcp.close();
    await served.close();
  });
  resource = `${served.url.replace(/\/$/, '')}/mcp`;
  const { issuer } = fixture();
  const guarded = protect(mcp, {
    resource,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, audience: resource, jwks: `${issuer}/jwks` }),
    requiredScopes: ['mcp:read'],
    scopes,
    maxBodyBytes,
  });
  return { resource, seen };
}

function user(resource: string, seen: URL[] = []) {
  const store = new MemoryTokenStore();
  const auth = new OAuthClientProvider({
    serverUrl: resource,
    redirectUri: REDIRECT,
    redirect: browser(REDIRECT, seen),
    clientMetadataUrl: CLIENT_ID,
    store,
  });
  return { auth, store, token: () => store.loadTokens(resource)?.accessToken ?? '' };
}

async function connect(auth: OAuthClientProvider, resource: string, options: McpClientOptions = {}) {
  const client = new McpClient({ name: 'scopes-test', version: '1.0.0' }, { onError: () => {}, ...options });
  const transport = new StreamableHttpClientTransport(new URL(resource), { authProvider: auth });
  cleanups.push(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

function post(resource: string, token: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(resource, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe('scopes per tool, prompt and resource', () => {
  it('lists leave out what the token may not use, a call gets 403 insufficient_scope, and the client steps up and succeeds', async () => {
    const { resource } = await startNotes();
    const logins: URL[] = [];
    const alice = user(resource, logins);
    const { client } = await connect(alice.auth, resource);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['open']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['notes://public']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    const asked = (login: URL | undefined) =>
      login?.searchParams
        .get('scope')
        ?.split(' ')
        .filter((scope) => scope !== 'offline_access')
        .sort();
    expect(asked(logins[0])).toEqual(['mcp:read']);

    const readOnly = alice.token();
    const refused = await post(resource, readOnly, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'write_note', arguments: {} },
    });
    expect(refused.status).toBe(403);
    const metadata = `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadata}", scope="mcp:read mcp:write", error="insufficient_scope"`,
    );
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: INSUFFICIENT_SCOPE,
        message: 'Insufficient scope: this request needs mcp:read mcp:write',
        data: { error: 'insufficient_scope', scope: 'mcp:read mcp:write' },
      },
    });
    for (const [method, params] of [
      ['resources/read', { uri: 'notes://private/1' }],
      ['prompts/get', { name: 'draft' }],
      [
        'completion/complete',
        { ref: { type: 'ref/resource', uri: 'notes://private/{id}' }, argument: { name: 'id', value: '' } },
      ],
    ] as const) {
      const response = await post(resource, readOnly, { jsonrpc: '2.0', id: 1, method, params });
      expect([method, response.status]).toEqual([method, 403]);
    }

    // The same call through the client: 403, step-up to the union of scopes, retry, success.
    expect(text((await client.callTool('write_note', {})) as CallToolResult)).toBe('user-1');
    expect(logins).toHaveLength(2);
    expect(asked(logins[1])).toEqual(['mcp:read', 'mcp:write']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'write_note']);
    expect((await client.readResource('notes://private/1')).contents).toHaveLength(1);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
  });

  it('a body too large for protect() to check is refused with 413 rather than let through unchecked', async () => {
    const { resource } = await startNotes([], 512);
    const alice = user(resource);
    await connect(alice.auth, resource);
    const call = (padding: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { padding: 'x'.repeat(padding) } },
      });
    const bytes = new TextEncoder().encode(call(1000));
    const streamed = await fetch(resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token()}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.slice(0, 300));
          controller.enqueue(bytes.slice(300));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await post(resource, alice.token(), JSON.parse(call(1000)))).status).toBe(413);
    expect((await post(resource, alice.token(), JSON.parse(call(10)))).status).toBe(403);
  });

  it('the metadata document advertises the declared scopes with the required ones', async () => {
    const { resource } = await startNotes();
    const response = await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`);
    expect((await response.json()).scopes_supported).toEqual(['mcp:read', 'mcp:write']);
  });

  it('off HTTP (in-memory, stdio) a refusal is the JSON-RPC error INSUFFICIENT_SCOPE, and lists are filtered the same way', async () => {
    const server = notesServer([]);
    const open = async (granted: string[]) => {
      const authInfo: AuthInfo = { clientId: 'app', scopes: granted, extra: { sub: 'bob' } };
      const [clientSide, serverSide] = createInMemoryPair({ serialize: true, extra: { authInfo } });
      server.connect(serverSide);
      const client = new McpClient({ name: 'mem', version: '1.0.0' });
      cleanups.push(() => client.close());
      await client.connect(clientSide);
      return client;
    };
    const reader = await open(['mcp:read']);
    const error = await reader.callTool('write_note', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: INSUFFICIENT_SCOPE,
      data: { error: 'insufficient_scope', scope: 'mcp:write' },
    });
    await expect(reader.readResource('notes://audit')).rejects.toMatchObject({ code: INSUFFICIENT_SCOPE });
    expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual(['notes://public']);
    const writer = await open(['mcp:read', 'mcp:write']);
    expect(text((await writer.callTool('write_note', {})) as CallToolResult)).toBe('bob');
    expect((await writer.listResources()).resources).toHaveLength(2);
  });

  it('a scope that is not an RFC 6749 scope token is refused at declaration', () => {
    expect(() => requireScopes({ tools: { t: ['a b'] } })).toThrow(TypeError);
    expect(() => requireScopes({ tools: { t: ['say"hi'] } })).toThrow(TypeError);
    expect(new InsufficientScopeError(['x']).code).toBe(INSUFFICIENT_SCOPE);
  });
});

describe('sessions and tasks bound to their principal', () => {
  it("another subject's token with the same client cannot use a session (404), and every handler sees ctx.authInfo", async () => {
    const { resource, seen } = await startNotes();
    const alice = user(resource);
    // '2025': what is bound to the principal here is a session (2026-07-28 has none).
    const { client, transport } = await connect(alice.auth, resource, { protocolEra: '2025' });
    const sessionId = transport.sessionId as string;
    fixture().loginAs = 'user-2';
    const bob = user(resource);
    await connect(bob.auth, resource);
    expect(bob.token()).not.toBe(alice.token());

    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const hijack = await post(resource, bob.token(), list, sessionId);
    expect(hijack.status).toBe(404);
    await hijack.body?.cancel();
    const remove = await fetch(resource, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob.token()}`, 'mcp-session-id': sessionId },
    });
    expect(remove.status).toBe(404);
    const own = await post(resource, alice.token(), list, sessionId);
    expect(own.status).toBe(200);
    await own.body?.cancel();

    await client.callTool('whoami', {});
    await client.getPrompt('open', {});
    await client.readResource('notes://public');
    await client.complete({
      ref: { type: 'ref/prompt', name: 'open' },
      argument: { name: 'topic', value: '' },
    });
    expect(seen).toEqual(['tool:user-1', 'prompt:user-1', 'resource:user-1', 'complete:user-1']);
  });

  it('a legacy HTTP+SSE session answers only to the subject that opened it, not to another user of the same client', async () => {
    const legacy = createLegacySseHandler(notesServer([]), { keepAliveInterval: false });
    cleanups.push(() => legacy.close());
    const caller = (sub: string) => ({ authInfo: { clientId: CLIENT_ID, scopes: [], extra: { sub } } });
    const stream = await legacy.handle(
      new Request('http://127.0.0.1/sse', { headers: { accept: 'text/event-stream' } }),
      caller('user-1'),
    );
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(first)?.[1] ?? '';
    const message = (sub: string) =>
      legacy.handle(
        new Request(new URL(endpoint, 'http://127.0.0.1'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        }),
        caller(sub),
      );
    expect((await message('user-2')).status).toBe(404);
    expect((await message('user-1')).status).toBe(202);
    await reader.cancel();
  });

  it('a task stays with its subject: the owner reads it from another session and token, another subject cannot', async () => {
    const { resource } = await startNotes();
    const alice = user(resource);
    const { client } = await connect(alice.auth, resource);
    await client.callTool('write_note', {}); // steps up to mcp:write
    const { task } = await callToolAsTask(client, 'write_note', {});
    const again = user(resource);
    const second = await connect(again.auth, resource);
    expect(again.token()).not.toBe(alice.token());
    fixture().loginAs = 'user-2';
    const bob = user(resource);
    const other = await connect(bob.auth, resource);
    await other.client.callTool('write_note', {}); // bob steps up too
    await expect(getTask(other.client, task.taskId)).rejects.toMatchObject({ code: -32602 });
    const result = await getTaskResult<CallToolResult>(second.client, task.taskId);
    expect(text(result)).toBe('user-1');
  });
});
