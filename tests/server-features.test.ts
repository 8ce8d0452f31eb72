import { Client } from '@mcpkit/client';
import {
  type CallToolResult,
  type CompleteResult,
  Connection,
  createInMemoryPair,
  type GetPromptResult,
  type InitializeResult,
  type JsonSchemaValidator,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  McpError,
  type ReadResourceResult,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { defaultValidator } from '@mcpkit/schema';
import {
  audio,
  decodeBase64,
  embeddedResource,
  image,
  McpServer,
  type McpServerOptions,
  promptSupport,
  type RegisteredTool,
  type RequestContext,
  resourceLink,
  resourceSupport,
  ToolError,
  text,
} from '@mcpkit/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { eventually as until } from './support/eventually.js';
import { rejection } from './support/promises.js';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const WAV_TINY = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function newServer(options: McpServerOptions = {}) {
  const onError = vi.fn();
  const server = new McpServer(
    { name: 'features', version: '1.0.0' },
    { onError, resources: resourceSupport, prompts: promptSupport, ...options },
  );
  return { server, onError };
}

/** Connects a real Client over a serializing in-memory pair and waits until the session is ready. */
async function connect(server: McpServer) {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const session = server.connect(serverSide);
  const initialized = new Promise<void>((resolve) => {
    const stop = server.onSessionInitialized((s) => {
      if (s === session) {
        stop();
        resolve();
      }
    });
  });
  // These tests watch the session (initialize, list_changed per session): the 2025 era.
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { protocolEra: '2025' });
  const notifications: Array<{ method: string; params: Record<string, unknown> }> = [];
  for (const method of [
    'notifications/tools/list_changed',
    'notifications/resources/list_changed',
    'notifications/prompts/list_changed',
    'notifications/resources/updated',
    'notifications/message',
    'notifications/progress',
  ]) {
    client.onNotification(method, (params) => notifications.push({ method, params }));
  }
  const init = await client.connect(clientSide);
  await initialized;
  const call = (name: string, args?: Record<string, unknown>) =>
    client.request<CallToolResult>('tools/call', args === undefined ? { name } : { name, arguments: args });
  const count = (method: string) => notifications.filter((n) => n.method === method).length;
  return { client, session, init, notifications, call, count };
}

function textOf(result: CallToolResult, index = 0): string {
  const block = result.content[index];
  if (block?.type !== 'text') throw new Error(`content[${index}] is not text`);
  return block.text;
}

describe('McpServer capabilities', () => {
  it('declares exactly what is registered, with listChanged, subscribe, logging and completions', async () => {
    const { server } = newServer();
    server.tool('t', () => 'x');
    server.resource('test://r', () => 'r');
    server.prompt('p', { arguments: [{ name: 'a' }], complete: { a: () => [] } }, () => 'p');
    const { init } = await connect(server);
    expect(init.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it('declares only logging when nothing is registered, and answers -32601 for undeclared features', async () => {
    const { server } = newServer();
    const { init, session } = await connect(server);
    expect(init.capabilities).toEqual({ logging: {} });
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const raw = new Connection(clientSide, { onRequest: () => ({}), onNotification: () => {} });
    await raw.start();
    await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    await expect(raw.request('tools/list', {})).rejects.toMatchObject({ code: -32601 });
    await expect(raw.request('completion/complete', {})).rejects.toMatchObject({ code: -32601 });
    expect(session.initialized).toBe(true);
  });

  it('pre-declares a feature through the capabilities option so it can be filled after clients connect', async () => {
    const { server } = newServer({ capabilities: { tools: { listChanged: true } } });
    const { client, count, init } = await connect(server);
    expect(init.capabilities.tools).toEqual({ listChanged: true });
    expect((await client.request<ListToolsResult>('tools/list', {})).tools).toEqual([]);
    server.tool('late', () => 'here');
    await until(() => count('notifications/tools/list_changed') === 1);
    expect((await client.request<ListToolsResult>('tools/list', {})).tools.map((t) => t.name)).toEqual([
      'late',
    ]);
  });

  it('sends list_changed only to sessions that were told the list can change', async () => {
    const { server } = newServer();
    server.prompt('p', () => 'p');
    const early = await connect(server);
    server.tool('first', () => 'x');
    const late = await connect(server);
    server.tool('second', () => 'y');
    await until(() => late.count('notifications/tools/list_changed') === 1);
    await sleep(30);
    expect(early.count('notifications/tools/list_changed')).toBe(0);
    expect(early.init.capabilities.tools).toBeUndefined();
  });
});

describe('McpServer tools', () => {
  it('enforces the tool name rules at registration and refuses duplicates', () => {
    const { server } = newServer();
    for (const bad of ['', 'has space', 'a,b', 'emoji😀', 'x'.repeat(129), 'slash/name']) {
      expect(() => server.tool(bad, () => 'x')).toThrow(/Invalid tool name/);
    }
    server.tool('x'.repeat(128), () => 'x');
    server.tool('Admin.tools-list_v2', () => 'x');
    expect(() => server.tool('Admin.tools-list_v2', () => 'x')).toThrow(/already registered/);
    expect(() => server.tool('has space', () => 'x')).toThrow(/contains " " at position 3/);
  });

  it('lists metadata as registered, with the recommended empty input schema by default', async () => {
    const { server } = newServer();
    server.tool(
      'weather',
      {
        title: 'Weather',
        description: 'Current weather',
        icons: [{ src: 'https://example.com/w.png', mimeType: 'image/png', sizes: ['48x48'] }],
        annotations: { readOnlyHint: true, openWorldHint: true },
        execution: { taskSupport: 'optional' },
        _meta: { 'com.example/owner': 'team-a' },
      },
      () => 'sunny',
    );
    const { client } = await connect(server);
    const { tools } = await client.request<ListToolsResult>('tools/list', {});
    expect(tools).toEqual([
      {
        name: 'weather',
        title: 'Weather',
        description: 'Current weather',
        icons: [{ src: 'https://example.com/w.png', mimeType: 'image/png', sizes: ['48x48'] }],
        inputSchema: { type: 'object', additionalProperties: false },
        annotations: { readOnlyHint: true, openWorldHint: true },
        execution: { taskSupport: 'optional' },
        _meta: { 'com.example/owner': 'team-a' },
      },
    ]);
  });

  it('rejects unsafe icons, reserved _meta keys and malformed annotations at registration', () => {
    const { server } = newServer();
    expect(() => server.tool('a', { icons: [{ src: 'http://example.com/i.png' }] }, () => 'x')).toThrow(
      /Tool "a": icons\[0\]: icon "src" must be an https: URL/,
    );
    expect(() => server.tool('b', { icons: [{ src: 'javascript:alert(1)' }] }, () => 'x')).toThrow(
      /icons\[0\]/,
    );
    expect(() => server.tool('c', { _meta: { 'io.modelcontextprotocol/mine': 1 } }, () => 'x')).toThrow(
      /reserved/,
    );
    expect(() =>
      server.tool('d', { annotations: { readOnlyHint: 'yes' as unknown as boolean } }, () => 'x'),
    ).toThrow(/readOnlyHint must be a boolean/);
    expect(() =>
      server.tool('e', { execution: { taskSupport: 'sometimes' as 'optional' } }, () => 'x'),
    ).toThrow(/taskSupport/);
    server.tool('f', { icons: [{ src: `data:image/png;base64,${PNG_1X1}` }] }, () => 'x');
  });

  it('keeps a raw JSON Schema byte for byte ($schema, $defs, additionalProperties) and validates with it', async () => {
    const { server } = newServer();
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    };
    const wire = JSON.stringify(schema);
    server.tool(
      'json_schema_2020_12_tool',
      { description: 'JSON Schema 2020-12', inputSchema: schema },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return `called with ${JSON.stringify(args)}`;
      },
    );
    (schema.properties as Record<string, unknown>).name = { type: 'number' }; // later edits change nothing
    const { client, call } = await connect(server);
    const { tools } = await client.request<ListToolsResult>('tools/list', {});
    expect(JSON.stringify(tools[0]?.inputSchema)).toBe(wire);
    const ok = await call('json_schema_2020_12_tool', { name: 'Ada', address: { city: 'London' } });
    expect(ok.isError).toBeUndefined();
    const bad = await call('json_schema_2020_12_tool', { name: 'Ada', address: { city: 7 }, extra: true });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('/address/city: must be string');
    expect(textOf(bad)).toContain('unexpected property "extra"');
  });

  it('honours an explicit draft-07 dialect and rejects an unsupported one at registration', async () => {
    const { server } = newServer();
    server.tool(
      'pair',
      {
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
          },
          required: ['pair'],
        },
      },
      ({ pair }) => JSON.stringify(pair),
    );
    expect(() =>
      server.tool(
        'old',
        { inputSchema: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' } },
        () => 'x',
      ),
    ).toThrow(
      /Tool "old" inputSchema: Unsupported JSON Schema dialect "http:\/\/json-schema.org\/draft-03\/schema#"/,
    );
    expect(() => server.tool('scalar', { inputSchema: { type: 'string' } }, () => 'x')).toThrow(
      /root needs "type": "object" \(got "string"\)/,
    );
    expect(() => server.tool('zscalar', { inputSchema: z.string() }, () => 'x')).toThrow(
      /root needs "type": "object"/,
    );
    const { call } = await connect(server);
    expect((await call('pair', { pair: ['a', 1] })).isError).toBeUndefined();
    const wrongSecond = await call('pair', { pair: ['a', 'b'] });
    expect(textOf(wrongSecond)).toContain('/pair/1: must be number');
    expect((await call('pair', { pair: ['a', 1, 2] })).isError).toBe(true);
  });

  it('types and validates arguments from zod, valibot and arktype schemas', async () => {
    const { server } = newServer();
    server.tool(
      'zod',
      { inputSchema: z.object({ text: z.string(), times: z.number().int().default(2) }) },
      ({ text, times }) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        expectTypeOf(times).toEqualTypeOf<number>();
        return text.repeat(times);
      },
    );
    server.tool('valibot', { inputSchema: toStandardJsonSchema(v.object({ n: v.number() })) }, ({ n }) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      return String(n * 2);
    });
    server.tool(
      'arktype',
      { inputSchema: type({ word: 'string', 'count?': 'number' }) },
      ({ word, count }) => {
        expectTypeOf(word).toEqualTypeOf<string>();
        expectTypeOf(count).toEqualTypeOf<number | undefined>();
        return `${word}:${count ?? 0}`;
      },
    );
    server.tool(
      'literal',
      { inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      ({ city }) => {
        expectTypeOf(city).toEqualTypeOf<string>();
        return city;
      },
    );
    const { client, call } = await connect(server);
    const { tools } = await client.request<ListToolsResult>('tools/list', {});
    expect(tools.find((t) => t.name === 'zod')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(tools.find((t) => t.name === 'valibot')?.inputSchema).toMatchObject({
      properties: { n: { type: 'number' } },
    });
    expect(tools.find((t) => t.name === 'arktype')?.inputSchema).toMatchObject({ required: ['word'] });

    expect(textOf(await call('zod', { text: 'ab' }))).toBe('abab');
    expect(textOf(await call('valibot', { n: 21 }))).toBe('42');
    expect(textOf(await call('arktype', { word: 'hi', count: 3 }))).toBe('hi:3');
    expect(textOf(await call('literal', { city: 'Paris' }))).toBe('Paris');

    for (const [name, args, path] of [
      ['zod', { text: 5 }, '/text'],
      ['valibot', { n: 'x' }, '/n'],
      ['arktype', { word: 1 }, '/word'],
      ['literal', {}, '(root)'],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toContain(`Invalid arguments for tool "${name}"`);
      expect(textOf(result)).toContain(`- ${path}: `);
      expect(textOf(result)).toContain('call it again');
    }
  });

  it('lists each invalid-argument issue with its path and message', async () => {
    const { server } = newServer();
    server.tool(
      'echo',
      {
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
          required: ['text', 'count'],
          additionalProperties: false,
        },
      },
      ({ text }) => text,
    );
    const { call } = await connect(server);
    const result = await call('echo', { text: 42, count: 0, extra: 1 });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: [
            'Invalid arguments for tool "echo":',
            '- /text: must be string, got number',
            '- /count: must be >= 1',
            '- (root): unexpected property "extra"',
            "Fix these arguments to match the tool's inputSchema and call it again.",
          ].join('\n'),
        },
      ],
    });
  });

  it('answers unknown and disabled tools with -32602; disabled tools vanish from the list', async () => {
    const { server } = newServer();
    const secret = server.tool('secret', () => 'classified');
    server.tool('public', () => 'open');
    const { client, call, count } = await connect(server);
    const unknown = await rejection(call('nope', {}));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toBe('Unknown tool: "nope"');
    secret.disable();
    expect(secret.enabled).toBe(false);
    expect((await client.request<ListToolsResult>('tools/list', {})).tools.map((t) => t.name)).toEqual([
      'public',
    ]);
    const disabled = await rejection(call('secret', {}));
    expect(disabled.code).toBe(-32602);
    expect(disabled.message).toBe('Unknown tool: "secret"');
    secret.enable();
    expect(textOf(await call('secret'))).toBe('classified');
    expect((await client.request<ListToolsResult>('tools/list', {})).tools.map((t) => t.name)).toEqual([
      'secret',
      'public',
    ]);
    await until(() => count('notifications/tools/list_changed') >= 1);
    await expect(client.request<unknown>('tools/call', { arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      client.request<unknown>('tools/call', { name: 'public', arguments: [1] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('treats a call without "arguments" as empty arguments', async () => {
    const { server } = newServer();
    server.tool(
      'test_simple_text',
      { description: 'simple' },
      () => 'This is a simple text response for testing.',
    );
    const { call } = await connect(server);
    expect(await call('test_simple_text')).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    const extra = await call('test_simple_text', { unexpected: 1 });
    expect(extra.isError).toBe(true);
  });

  it('a thrown tool error no longer reaches the model verbatim by default: paths and secrets become "failed with an internal error" and go to onError in full', async () => {
    const { server, onError } = newServer();
    const leak = 'ENOENT: open /home/me/project/src/tool.js:42 password=hunter2';
    server.tool('leaky', () => {
      throw new Error(leak);
    });
    server.tool('async-leaky', async () => {
      throw new Error(leak);
    });
    server.tool('expected', () => {
      throw new ToolError('No weather station near Atlantis');
    });
    const { call, session } = await connect(server);
    for (const name of ['leaky', 'async-leaky']) {
      const result = await call(name, {});
      expect(result).toEqual({
        isError: true,
        content: [{ type: 'text', text: `Tool "${name}" failed with an internal error.` }],
      });
      expect(JSON.stringify(result)).not.toContain('hunter2');
    }
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: leak }), session);
    onError.mockClear();
    expect(textOf(await call('expected', {}))).toBe('No weather station near Atlantis');
    expect(onError).not.toHaveBeenCalled();
  });

  it('with maskToolErrors: false, turns thrown errors into isError results with their raw messages but no stack traces, reporting them to onError', async () => {
    const { server, onError } = newServer({ maskToolErrors: false });
    server.tool('fails', () => {
      throw new Error('City not found: Atlantis');
    });
    server.tool('expected', () => {
      throw new ToolError('Try a larger city nearby');
    });
    server.tool('weird', () => {
      throw 42;
    });
    server.tool('url', () => {
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
      ]);
    });
    const { call, session } = await connect(server);
    const failed = await call('fails', {});
    expect(failed).toEqual({ isError: true, content: [{ type: 'text', text: 'City not found: Atlantis' }] });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'City not found: Atlantis' }),
      session,
    );
    onError.mockClear();
    expect(textOf(await call('expected', {}))).toBe('Try a larger city nearby');
    expect(onError).not.toHaveBeenCalled();
    expect(await call('weird', {})).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Tool "weird" failed.' }],
    });
    const url = await rejection(call('url', {}));
    expect(url.code).toBe(-32042);
  });

  it('masks plain error messages when maskToolErrors is set, but not ToolError or McpError ones', async () => {
    const { server, onError } = newServer({ maskToolErrors: true });
    server.tool('leaky', () => {
      throw new Error('ECONNREFUSED 10.0.0.7:5432');
    });
    server.tool('polite', () => {
      throw new ToolError('No such city');
    });
    server.tool('protocol', () => {
      throw new McpError(-32602, 'Bad page token');
    });
    const { call } = await connect(server);
    expect(textOf(await call('leaky', {}))).toBe('Tool "leaky" failed with an internal error.');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'ECONNREFUSED 10.0.0.7:5432' }),
      expect.anything(),
    );
    expect(textOf(await call('polite', {}))).toBe('No such city');
    expect(textOf(await call('protocol', {}))).toBe('Bad page token');
  });

  it('wraps plain returns: strings, blocks, block lists, full results, JSON values and nothing', async () => {
    const { server } = newServer();
    const fullResult: CallToolResult = {
      content: [text('full')],
      isError: false,
      _meta: { 'com.example/x': 1 },
    };
    const returns: Record<string, unknown> = {
      string: 'hello',
      block: image(PNG_1X1, 'image/png'),
      blocks: [text('a'), audio(WAV_TINY, 'audio/wav')],
      full: fullResult,
      object: { celsius: 21 },
      array: [1, 2],
      number: 42,
      nothing: undefined,
      contentLike: { content: ['not', 'blocks'] },
    };
    for (const [name, value] of Object.entries(returns)) server.tool(name, () => value);
    const { call } = await connect(server);
    expect(await call('string')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(await call('block')).toEqual({
      content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
    });
    expect(await call('blocks')).toEqual({
      content: [
        { type: 'text', text: 'a' },
        { type: 'audio', data: WAV_TINY, mimeType: 'audio/wav' },
      ],
    });
    expect(await call('full')).toEqual(fullResult);
    expect(await call('object')).toEqual({ content: [{ type: 'text', text: '{"celsius":21}' }] });
    expect(await call('array')).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(await call('number')).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(await call('nothing')).toEqual({ content: [] });
    expect(await call('contentLike')).toEqual({
      content: [{ type: 'text', text: '{"content":["not","blocks"]}' }],
    });
  });

  it('carries every content type, and binary helpers round-trip bytes', async () => {
    const { server } = newServer();
    const bytes = new Uint8Array(70_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    server.tool('all', () => [
      text('t'),
      image(bytes, 'image/png'),
      audio(bytes.buffer, 'audio/wav'),
      resourceLink({ uri: 'file:///report.pdf', name: 'report.pdf', mimeType: 'application/pdf' }),
      embeddedResource({ uri: 'test://blob', mimeType: 'application/octet-stream', blob: bytes }),
    ]);
    const { call } = await connect(server);
    const result = await call('all', {});
    expect(result.content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
    ]);
    const [, img, snd, link, embedded] = result.content;
    // Node's own encoder is the reference; comparing strings keeps a 70 kB check fast.
    const expected = Buffer.from(bytes).toString('base64');
    expect(img?.type === 'image' && img.data === expected).toBe(true);
    expect(snd?.type === 'audio' && snd.data === expected).toBe(true);
    expect(link).toEqual({
      type: 'resource_link',
      uri: 'file:///report.pdf',
      name: 'report.pdf',
      mimeType: 'application/pdf',
    });
    const blob = embedded?.type === 'resource' && 'blob' in embedded.resource ? embedded.resource.blob : '';
    expect(blob === expected).toBe(true);
    expect(Buffer.from(decodeBase64(blob)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('returns structuredContent with a JSON text fallback, validated against outputSchema', async () => {
    const { server, onError } = newServer();
    const outputSchema = z.object({ celsius: z.number(), unit: z.string().default('C') });
    server.tool('temp', { inputSchema: z.object({ city: z.string() }), outputSchema }, ({ city }) => {
      expectTypeOf(city).toEqualTypeOf<string>();
      return { celsius: city.length };
    });
    server.tool('wrong', { outputSchema }, () => ({ celsius: 'hot' }) as unknown as { celsius: number });
    server.tool('missing', { outputSchema }, () => 'just text' as unknown as { celsius: number });
    server.tool('declared-failure', { outputSchema }, () => ({
      isError: true,
      content: [text('upstream down')],
    }));
    server.tool(
      'full',
      { outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      () => ({ content: [text('ok')], structuredContent: { ok: true } }),
    );
    const { client, call } = await connect(server);
    const { tools } = await client.request<ListToolsResult>('tools/list', {});
    expect(tools.find((t) => t.name === 'temp')?.outputSchema).toMatchObject({
      type: 'object',
      required: ['celsius', 'unit'],
    });
    expect(await call('temp', { city: 'Paris' })).toEqual({
      content: [{ type: 'text', text: '{"celsius":5,"unit":"C"}' }],
      structuredContent: { celsius: 5, unit: 'C' },
    });
    const wrong = await call('wrong', {});
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain(
      'Tool "wrong" returned structured content that does not match its outputSchema',
    );
    expect(textOf(wrong)).toContain('/celsius');
    const missing = await call('missing', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('declares an outputSchema but returned no structured content');
    expect(onError).toHaveBeenCalledTimes(2);
    expect(await call('declared-failure', {})).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'upstream down' }],
    });
    expect(await call('full', {})).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { ok: true },
    });
  });

  it('compiles each schema once, at registration, not per call', async () => {
    const base = defaultValidator();
    const compile = vi.fn((schema: Parameters<JsonSchemaValidator['compile']>[0]) => base.compile(schema));
    const { server } = newServer({ validator: { compile } as JsonSchemaValidator });
    const compilesAtStart = compile.mock.calls.length;
    server.tool(
      'echo',
      { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      ({ text }) => text,
    );
    expect(compile.mock.calls.length).toBe(compilesAtStart + 1);
    const { call } = await connect(server);
    for (let i = 0; i < 50; i++) expect(textOf(await call('echo', { text: `m${i}` }))).toBe(`m${i}`);
    expect(compile.mock.calls.length).toBe(compilesAtStart + 1);
  });

  it('updates, renames and removes tools at runtime, atomically', async () => {
    const { server } = newServer();
    const tool = server.tool('v1', { description: 'first' }, () => 'one');
    server.tool('other', () => 'other');
    const { client, call, count } = await connect(server);
    tool.update({ description: 'second', handler: () => 'two' });
    expect((await client.request<ListToolsResult>('tools/list', {})).tools[0]?.description).toBe('second');
    expect(textOf(await call('v1'))).toBe('two');
    expect(() => tool.update({ inputSchema: { type: 'array' } })).toThrow(/root needs "type": "object"/);
    expect(() => tool.update({ name: 'other' })).toThrow(/already registered/);
    expect(tool.definition.description).toBe('second');
    tool.update({ name: 'v2', description: undefined });
    expect(
      (await client.request<ListToolsResult>('tools/list', {})).tools.map((t) => [t.name, t.description]),
    ).toEqual([
      ['v2', undefined],
      ['other', undefined],
    ]);
    await expect(call('v1')).rejects.toMatchObject({ code: -32602 });
    tool.remove();
    expect(tool.registered).toBe(false);
    expect((await client.request<ListToolsResult>('tools/list', {})).tools.map((t) => t.name)).toEqual([
      'other',
    ]);
    server.tool('v2', () => 'reborn');
    expect(textOf(await call('v2'))).toBe('reborn');
    await until(() => count('notifications/tools/list_changed') >= 1);
  });

  it('debounces list_changed: three registrations make one notification per session', async () => {
    const { server } = newServer({ listChangedDebounceMs: 20 });
    server.tool('seed', () => 'x');
    server.resource('test://seed', () => 'seed');
    const a = await connect(server);
    const b = await connect(server);
    server.tool('one', () => '1');
    server.tool('two', () => '2');
    server.tool('three', () => '3');
    await until(
      () =>
        a.count('notifications/tools/list_changed') === 1 &&
        b.count('notifications/tools/list_changed') === 1,
    );
    await sleep(60);
    expect(a.count('notifications/tools/list_changed')).toBe(1);
    expect(b.count('notifications/tools/list_changed')).toBe(1);
    server.resource('test://x', () => 'x');
    server.resource('test://y', () => 'y');
    server.prompt('p', () => 'p');
    await until(() => a.count('notifications/resources/list_changed') === 1);
    await sleep(40);
    expect(a.count('notifications/prompts/list_changed')).toBe(0); // prompts were not declared when a initialized
    expect(a.count('notifications/tools/list_changed')).toBe(1);
  });

  it('refuses a plain call to a tool that requires tasks (-32601) and ignores "task" without task support', async () => {
    const { server } = newServer();
    server.tool('background', { execution: { taskSupport: 'required' } }, () => 'ran');
    server.tool('plain', () => 'ran plainly');
    const { call } = await connect(server);
    const refused = await rejection(call('background', {}));
    expect(refused.code).toBe(-32601);
    expect(refused.message).toContain('can only be called as a task');
    // A raw peer, since a Client refuses to send "task" to a server without task support.
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const raw = new Connection(clientSide, { onRequest: () => ({}), onNotification: () => {} });
    await raw.start();
    await raw.request<InitializeResult>('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    await raw.notify('notifications/initialized');
    const result = await raw.request<CallToolResult>('tools/call', {
      name: 'plain',
      arguments: {},
      task: { ttl: 1000 },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ran plainly' }] });
  });

  it('an executeTool override still sees every plain tools/call after the move to feature modules', async () => {
    const audited: string[] = [];
    class AuditedServer extends McpServer {
      protected override executeTool(
        tool: RegisteredTool,
        args: Record<string, unknown>,
        ctx: RequestContext,
      ) {
        audited.push(tool.name);
        return super.executeTool(tool, args, ctx);
      }
    }
    const server = new AuditedServer({ name: 'audited', version: '1.0.0' });
    server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
    const { call } = await connect(server);
    expect(textOf(await call('echo', { text: 'hi' }))).toBe('hi');
    expect(audited).toEqual(['echo']);
  });

  it('routes task-augmented calls through the overridable runToolAsTask seam', async () => {
    const seen: string[] = [];
    class TaskingServer extends McpServer {
      protected override runToolAsTask(
        tool: RegisteredTool,
        args: Record<string, unknown>,
        ctx: RequestContext,
      ) {
        seen.push(`${tool.name}:${JSON.stringify(args)}`);
        return this.executeTool(tool, args, ctx);
      }
    }
    const server = new TaskingServer(
      { name: 't', version: '1' },
      { capabilities: { tasks: { requests: { tools: { call: {} } } } } },
    );
    server.tool(
      'job',
      { execution: { taskSupport: 'required' }, inputSchema: z.object({ n: z.number() }) },
      ({ n }) => `n=${n}`,
    );
    const { client } = await connect(server);
    const result = await client.request<CallToolResult>('tools/call', {
      name: 'job',
      arguments: { n: 3 },
      task: {},
    });
    expect(textOf(result)).toBe('n=3');
    expect(seen).toEqual(['job:{"n":3}']);
  });

  it('serves older revisions from the same definition, through the session codec', async () => {
    const { server } = newServer();
    server.tool(
      'temp',
      {
        title: 'Temperature',
        outputSchema: z.object({ celsius: z.number() }),
        icons: [{ src: 'https://example.com/t.png' }],
      },
      () => ({ celsius: 21 }),
    );
    const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
    server.connect(serverSide);
    const old = new Client({ name: 'old', version: '1' }, { protocolVersions: ['2025-03-26'] });
    await old.connect(clientSide);
    const { tools } = await old.request<ListToolsResult>('tools/list', {});
    expect(tools[0]).toEqual({ name: 'temp', inputSchema: { type: 'object', additionalProperties: false } });
    const result = await old.request<CallToolResult>('tools/call', { name: 'temp', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"celsius":21}' }] });
    const current = await connect(server);
    expect((await current.client.request<ListToolsResult>('tools/list', {})).tools[0]).toMatchObject({
      title: 'Temperature',
      icons: [{ src: 'https://example.com/t.png' }],
    });
  });

  it('gives handlers the request context: progress, logging, session and signal', async () => {
    const { server } = newServer();
    server.tool('work', async (_args, ctx) => {
      await ctx.progress(1, 2, 'half');
      ctx.log.info('working', 'worker');
      expect(ctx.signal.aborted).toBe(false);
      return `client=${ctx.session.clientInfo?.name}`;
    });
    const { client, notifications } = await connect(server);
    const progress: unknown[] = [];
    const result = await client.request<CallToolResult>(
      'tools/call',
      { name: 'work', arguments: {} },
      { onProgress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toBe('client=test-client');
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    expect(notifications.find((n) => n.method === 'notifications/message')?.params).toEqual({
      level: 'info',
      data: 'working',
      logger: 'worker',
    });
  });
});

describe('McpServer resources', () => {
  function resourceServer() {
    const { server, onError } = newServer();
    server.resource(
      'test://static-text',
      {
        name: 'static-text',
        title: 'Static Text Resource',
        description: 'A text resource',
        mimeType: 'text/plain',
        annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
        size: 48,
      },
      () => 'This is the content of the static text resource.',
    );
    server.resource('test://static-binary', { name: 'static-binary', mimeType: 'image/png' }, () =>
      decodeBase64(PNG_1X1),
    );
    server.resource(
      'test://watched-resource',
      { name: 'watched-resource', mimeType: 'text/plain' },
      () => 'Watched',
    );
    server.resource('test://broken', () => {
      throw new Error('disk at /srv/secret failed');
    });
    server.resourceTemplate(
      'test://template/{id}/data',
      {
        name: 'template',
        description: 'Data by id',
        mimeType: 'application/json',
        list: () => [{ uri: 'test://template/1/data', name: 'one' }],
      },
      (_uri, { id }) => {
        expectTypeOf(id).toEqualTypeOf<string | string[]>();
        return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
      },
    );
    return { server, onError };
  }

  it('lists resources (static, then template listings) and templates with their metadata', async () => {
    const { server } = resourceServer();
    const { client } = await connect(server);
    const { resources } = await client.request<ListResourcesResult>('resources/list', {});
    expect(resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
      'test://broken',
      'test://template/1/data',
    ]);
    expect(resources[0]).toEqual({
      uri: 'test://static-text',
      name: 'static-text',
      title: 'Static Text Resource',
      description: 'A text resource',
      mimeType: 'text/plain',
      annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
      size: 48,
    });
    expect(resources[3]).toEqual({ uri: 'test://broken', name: 'test://broken' });
    const { resourceTemplates } = await client.request<ListResourceTemplatesResult>(
      'resources/templates/list',
      {},
    );
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        description: 'Data by id',
        mimeType: 'application/json',
      },
    ]);
  });

  it('reads text, binary (base64 blob) and templated resources', async () => {
    const { server } = resourceServer();
    const { client } = await connect(server);
    expect(await client.request<ReadResourceResult>('resources/read', { uri: 'test://static-text' })).toEqual(
      {
        contents: [
          {
            uri: 'test://static-text',
            mimeType: 'text/plain',
            text: 'This is the content of the static text resource.',
          },
        ],
      },
    );
    expect(
      await client.request<ReadResourceResult>('resources/read', { uri: 'test://static-binary' }),
    ).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_1X1 }],
    });
    expect(
      await client.request<ReadResourceResult>('resources/read', { uri: 'test://template/123/data' }),
    ).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });
  });

  it('answers an unknown resource with -32002 and data.uri, an invalid URI with -32602, a crash with -32603', async () => {
    const { server, onError } = resourceServer();
    const { client } = await connect(server);
    const missing = await rejection(client.request('resources/read', { uri: 'test://nope' }));
    expect(missing.code).toBe(-32002);
    expect(missing.data).toEqual({ uri: 'test://nope' });
    await expect(client.request('resources/read', { uri: 'no scheme' })).rejects.toMatchObject({
      code: -32602,
    });
    const crash = await rejection(client.request('resources/read', { uri: 'test://broken' }));
    expect(crash.code).toBe(-32603);
    expect(crash.message).not.toContain('/srv/secret');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'disk at /srv/secret failed' }),
      expect.anything(),
    );
  });

  it('needs resourceSupport to register resources, and says where to get it', async () => {
    const bare = new McpServer({ name: 'bare', version: '1.0.0' }, { prompts: promptSupport });
    const hint =
      /new McpServer\(info, \{ resources: resourceSupport \}\), with resourceSupport from '@mcpkit\/server'/;
    expect(() => bare.resource('test://x', () => 'x')).toThrow(hint);
    expect(() => bare.resourceTemplate('test://{id}', { name: 't' }, () => 'x')).toThrow(hint);
    expect(() => new McpServer({ name: 'x', version: '1' }, { resources: true as never })).toThrow(hint);
    expect(
      () => new McpServer({ name: 'x', version: '1' }, { capabilities: { resources: { subscribe: true } } }),
    ).toThrow(hint);
    // Without resources a resource reference names nothing, and no one can be subscribed.
    bare.prompt('p', { arguments: [{ name: 'a' }], complete: { a: () => ['b'] } }, () => 'p');
    bare.notifyResourceUpdated('test://x');
    const { client } = await connect(bare);
    const unknown = await rejection(
      client.request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'test://{id}' },
        argument: { name: 'id', value: '' },
      }),
    );
    expect(unknown).toMatchObject({ code: -32602, message: 'Unknown resource template: "test://{id}"' });
  });

  it('needs promptSupport to register prompts, and says where to get it', async () => {
    const toolsOnly = new McpServer({ name: 'tools-only', version: '1.0.0' });
    const hint =
      /new McpServer\(info, \{ prompts: promptSupport \}\), with promptSupport from '@mcpkit\/server'/;
    expect(() => toolsOnly.prompt('p', () => 'p')).toThrow(TypeError);
    expect(() => toolsOnly.prompt('p', () => 'p')).toThrow(hint);
    expect(() => new McpServer({ name: 'x', version: '1' }, { prompts: true as never })).toThrow(hint);
    expect(
      () => new McpServer({ name: 'x', version: '1' }, { capabilities: { prompts: { listChanged: true } } }),
    ).toThrow(hint);
    // Completion comes with prompt or resource support: declared without either, it says so.
    const completions = () =>
      new McpServer({ name: 'x', version: '1' }, { capabilities: { completions: {} } });
    expect(completions).toThrow(TypeError);
    expect(completions).toThrow(
      /the completions capability needs prompt support: .* \(or resource support\)/,
    );
    for (const support of [{ prompts: promptSupport }, { resources: resourceSupport }]) {
      const server = new McpServer(
        { name: 'x', version: '1' },
        { ...support, capabilities: { completions: {} } },
      );
      const { init, client } = await connect(server);
      expect(init.capabilities.completions).toEqual({});
      const ref = support.prompts
        ? ({ type: 'ref/prompt', name: 'nope' } as const)
        : ({ type: 'ref/resource', uri: 'test://{nope}' } as const);
      const unknown = await rejection(
        client.request('completion/complete', { ref, argument: { name: 'a', value: '' } }),
      );
      expect(unknown.code).toBe(-32602);
    }
    // A tools-only server declares neither prompts nor completion.
    toolsOnly.tool('t', () => 't');
    const { init } = await connect(toolsOnly);
    expect(init.capabilities).toEqual({ logging: {}, tools: { listChanged: true } });
  });

  it('validates URIs, templates and annotations at registration', () => {
    const { server } = newServer();
    expect(() => server.resource('relative/path', () => 'x')).toThrow(/absolute URI with a scheme/);
    expect(() => server.resource('test://has space', () => 'x')).toThrow(/contains " "/);
    expect(() => server.resource('test://{id}', () => 'x')).toThrow(/resourceTemplate/);
    expect(() => server.resourceTemplate('test://fixed' as string, { name: 'f' }, () => 'x')).toThrow(
      /has no \{variable\}/,
    );
    expect(() => server.resourceTemplate('{id}', { name: 'f' }, () => 'x')).toThrow(/absolute URI/);
    expect(() => server.resourceTemplate('test://{id}/{x', { name: 'f' }, () => 'x')).toThrow(
      /Invalid URI template/,
    );
    expect(() =>
      server.resourceTemplate('test://{id}', { name: 'f', complete: { nope: () => [] } as never }, () => 'x'),
    ).toThrow(/cannot complete "nope"/);
    expect(() => server.resource('test://a', { annotations: { priority: 2 } }, () => 'x')).toThrow(
      /priority/,
    );
    expect(() =>
      server.resource('test://b', { annotations: { audience: ['robot' as 'user'] } }, () => 'x'),
    ).toThrow(/audience/);
    expect(() =>
      server.resource('test://c', { annotations: { lastModified: 'yesterday' } }, () => 'x'),
    ).toThrow(/lastModified/);
    server.resource('test://d', () => 'x');
    expect(() => server.resource('test://d', () => 'x')).toThrow(/already registered/);
  });

  it('sends resources/updated only to sessions subscribed to that URI', async () => {
    const { server } = resourceServer();
    const subscriber = await connect(server);
    const bystander = await connect(server);
    expect(
      await subscriber.client.request('resources/subscribe', { uri: 'test://watched-resource' }),
    ).toEqual({});
    expect(subscriber.session.subscriptions?.has('test://watched-resource')).toBe(true);
    server.notifyResourceUpdated('test://watched-resource');
    server.notifyResourceUpdated('test://static-text');
    await until(() => subscriber.count('notifications/resources/updated') === 1);
    await sleep(20);
    expect(subscriber.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'test://watched-resource' } },
    ]);
    expect(bystander.count('notifications/resources/updated')).toBe(0);
    expect(
      await subscriber.client.request('resources/unsubscribe', { uri: 'test://watched-resource' }),
    ).toEqual({});
    server.notifyResourceUpdated('test://watched-resource');
    await sleep(20);
    expect(subscriber.count('notifications/resources/updated')).toBe(1);
    await expect(
      subscriber.client.request('resources/subscribe', { uri: 'test://unknown' }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    expect(await subscriber.client.request('resources/subscribe', { uri: 'test://template/9/data' })).toEqual(
      {},
    );
  });

  it('caps the subscriptions of one session', async () => {
    const { server } = newServer({ maxSubscriptionsPerSession: 2 });
    server.resourceTemplate('test://item/{n}', { name: 'item' }, () => 'x');
    const { client } = await connect(server);
    await client.request('resources/subscribe', { uri: 'test://item/1' });
    await client.request('resources/subscribe', { uri: 'test://item/2' });
    await client.request('resources/subscribe', { uri: 'test://item/2' });
    await expect(client.request('resources/subscribe', { uri: 'test://item/3' })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('announces resource changes and hides disabled resources and templates', async () => {
    const { server } = resourceServer();
    const { client, count } = await connect(server);
    const extra = server.resource('test://extra', () => 'extra');
    await until(() => count('notifications/resources/list_changed') === 1);
    extra.disable();
    await expect(client.request('resources/read', { uri: 'test://extra' })).rejects.toMatchObject({
      code: -32002,
    });
    const template = server.resourceTemplate(
      'test://other/{x}',
      { name: 'other' },
      (_uri, { x }) => `x=${x}`,
    );
    expect(
      await client.request<ReadResourceResult>('resources/read', { uri: 'test://other/7' }),
    ).toMatchObject({
      contents: [{ text: 'x=7' }],
    });
    template.update({ description: 'changed' });
    expect(
      (await client.request<ListResourceTemplatesResult>('resources/templates/list', {}))
        .resourceTemplates[1],
    ).toEqual({
      uriTemplate: 'test://other/{x}',
      name: 'other',
      description: 'changed',
    });
    template.disable();
    await expect(client.request('resources/read', { uri: 'test://other/7' })).rejects.toMatchObject({
      code: -32002,
    });
    await until(() => count('notifications/resources/list_changed') === 2);
  });
});

describe('McpServer prompts', () => {
  function promptServer() {
    const { server } = newServer();
    server.prompt(
      'test_simple_prompt',
      { description: 'Simple' },
      () => 'This is a simple prompt for testing.',
    );
    server.prompt(
      'test_prompt_with_arguments',
      {
        description: 'With arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
          { name: 'style' },
        ],
      },
      ({ arg1, arg2, style }) => {
        expectTypeOf(arg1).toEqualTypeOf<string>();
        expectTypeOf(style).toEqualTypeOf<string | undefined>();
        return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'${style ? ` style=${style}` : ''}`;
      },
    );
    server.prompt('every_content_type', { description: 'All blocks' }, () => [
      { role: 'user', content: text('look') },
      { role: 'user', content: image(PNG_1X1, 'image/png') },
      { role: 'user', content: audio(WAV_TINY, 'audio/wav') },
      { role: 'assistant', content: resourceLink({ uri: 'test://static-text', name: 'static-text' }) },
      {
        role: 'user',
        content: embeddedResource({ uri: 'test://embedded', mimeType: 'text/plain', text: 'inside' }),
      },
    ]);
    server.prompt(
      'schema_prompt',
      { arguments: z.object({ code: z.string().describe('The code'), language: z.string().optional() }) },
      ({ code, language }) => {
        expectTypeOf(code).toEqualTypeOf<string>();
        return `Review ${language ?? 'code'}: ${code}`;
      },
    );
    return server;
  }

  it('lists prompts with their arguments (also derived from a schema)', async () => {
    const { client } = await connect(promptServer());
    const { prompts } = await client.request<ListPromptsResult>('prompts/list', {});
    expect(prompts[1]).toEqual({
      name: 'test_prompt_with_arguments',
      description: 'With arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
        { name: 'style' },
      ],
    });
    expect(prompts[0]).toEqual({ name: 'test_simple_prompt', description: 'Simple' });
    expect(prompts[3]).toEqual({
      name: 'schema_prompt',
      arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'language' }],
    });
  });

  it('gets prompts, checking required arguments and naming the missing ones', async () => {
    const { client } = await connect(promptServer());
    expect(
      await client.request<GetPromptResult>('prompts/get', {
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'a', arg2: 'b' },
      }),
    ).toEqual({
      description: 'With arguments',
      messages: [
        { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
      ],
    });
    const missing = await rejection(
      client.request('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } }),
    );
    expect(missing.code).toBe(-32602);
    expect(missing.message).toBe('Prompt "test_prompt_with_arguments" is missing required argument "arg2"');
    const both = await rejection(client.request('prompts/get', { name: 'test_prompt_with_arguments' }));
    expect(both.message).toContain('missing required arguments "arg1", "arg2"');
    const unknown = await rejection(client.request('prompts/get', { name: 'nope' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toBe('Unknown prompt: "nope"');
    await expect(
      client.request<unknown>('prompts/get', {
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 1, arg2: 'b' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(
      await client.request<GetPromptResult>('prompts/get', {
        name: 'schema_prompt',
        arguments: { code: 'x=1' },
      }),
    ).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Review code: x=1' } }],
    });
    await expect(
      client.request('prompts/get', { name: 'schema_prompt', arguments: {} }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('"code"'),
    });
  });

  it('returns messages with every content type', async () => {
    const { client } = await connect(promptServer());
    const { messages } = await client.request<GetPromptResult>('prompts/get', { name: 'every_content_type' });
    expect(messages.map((m) => [m.role, m.content.type])).toEqual([
      ['user', 'text'],
      ['user', 'image'],
      ['user', 'audio'],
      ['assistant', 'resource_link'],
      ['user', 'resource'],
    ]);
    expect(messages[4]?.content).toEqual({
      type: 'resource',
      resource: { uri: 'test://embedded', mimeType: 'text/plain', text: 'inside' },
    });
  });

  it('announces prompt changes, and hides disabled prompts', async () => {
    const server = promptServer();
    const { client, count } = await connect(server);
    const added = server.prompt('added', () => 'hi');
    await until(() => count('notifications/prompts/list_changed') === 1);
    added.disable();
    await expect(client.request('prompts/get', { name: 'added' })).rejects.toMatchObject({ code: -32602 });
    expect(
      (await client.request<ListPromptsResult>('prompts/list', {})).prompts.map((p) => p.name),
    ).not.toContain('added');
  });
});

describe('McpServer completion', () => {
  function completionServer() {
    const { server } = newServer();
    const many = Array.from({ length: 250 }, (_, i) => `item${String(i).padStart(3, '0')}`);
    const seen: unknown[] = [];
    server.prompt(
      'test_prompt_with_arguments',
      {
        arguments: [{ name: 'arg1', required: true }, { name: 'arg2' }, { name: 'plain' }],
        complete: {
          arg1: (value) => ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
          arg2: (value, context) => {
            seen.push(context.arguments);
            return many.filter((item) => item.startsWith(value));
          },
        },
      },
      () => 'x',
    );
    server.resourceTemplate(
      'test://{country}/{city}',
      {
        name: 'city',
        complete: {
          city: (value, { arguments: args }) =>
            (args.country === 'fr' ? ['Paris', 'Pau', 'Lyon'] : ['Berlin']).filter((c) =>
              c.startsWith(value),
            ),
        },
      },
      () => 'x',
    );
    server.resource('test://fixed', () => 'x');
    return { server, seen };
  }

  it('completes prompt arguments, filtering as the completer decides', async () => {
    const { server } = completionServer();
    const { client } = await connect(server);
    const complete = (name: string, value: string) =>
      client.request<CompleteResult>('completion/complete', {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name, value },
      });
    expect((await complete('arg1', 'par')).completion).toEqual({
      values: ['paris', 'park', 'party'],
      total: 3,
      hasMore: false,
    });
    expect((await complete('arg1', 'test')).completion).toEqual({ values: [], total: 0, hasMore: false });
    expect((await complete('plain', 'x')).completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('sends at most 100 values, with the full total and hasMore', async () => {
    const { server, seen } = completionServer();
    const { client } = await connect(server);
    const { completion } = await client.request<CompleteResult>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: 'item' },
      context: { arguments: { arg1: 'paris' } },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe('item000');
    expect(completion.total).toBe(250);
    expect(completion.hasMore).toBe(true);
    expect(seen).toEqual([{ arg1: 'paris' }]);
  });

  it('completes template variables using context.arguments', async () => {
    const { server } = completionServer();
    const { client } = await connect(server);
    const { completion } = await client.request<CompleteResult>('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://{country}/{city}' },
      argument: { name: 'city', value: 'Pa' },
      context: { arguments: { country: 'fr' } },
    });
    expect(completion).toEqual({ values: ['Paris', 'Pau'], total: 2, hasMore: false });
    const fixed = await client.request<CompleteResult>('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://fixed' },
      argument: { name: 'x', value: '' },
    });
    expect(fixed.completion.values).toEqual([]);
  });

  it('answers unknown references and malformed requests with -32602', async () => {
    const { server } = completionServer();
    const { client } = await connect(server);
    const arg = { name: 'a', value: '' };
    for (const params of [
      { ref: { type: 'ref/prompt', name: 'nope' }, argument: arg },
      { ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument: arg },
      { ref: { type: 'ref/other' }, argument: arg },
      { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' } },
      {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 1 },
      },
      {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: '' },
        context: { arguments: { x: 1 } },
      },
    ]) {
      await expect(
        client.request<unknown>('completion/complete', params),
        JSON.stringify(params),
      ).rejects.toMatchObject({
        code: -32602,
      });
    }
    const proto = await client.request<CompleteResult>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'constructor', value: '' },
    });
    expect(proto.completion.values).toEqual([]);
  });
});

describe('McpServer logging', () => {
  it('filters notifications/message by each session’s level and rejects invalid levels', async () => {
    const { server } = newServer();
    server.tool('chatty', (_args, ctx) => {
      ctx.log.debug('debug detail');
      ctx.log.error('bad thing');
      return 'done';
    });
    const quiet = await connect(server);
    const loud = await connect(server);
    expect(await quiet.client.request('logging/setLevel', { level: 'warning' })).toEqual({});
    const invalid = await rejection(quiet.client.request<unknown>('logging/setLevel', { level: 'verbose' }));
    expect(invalid.code).toBe(-32602);
    expect(quiet.session.logLevel).toBe('warning');
    server.log('info', { step: 1 });
    server.log('error', 'broken', 'db');
    await quiet.call('chatty', {});
    await until(
      () => quiet.count('notifications/message') === 2 && loud.count('notifications/message') === 2,
    );
    await sleep(20);
    expect(
      quiet.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params),
    ).toEqual([
      { level: 'error', data: 'broken', logger: 'db' },
      { level: 'error', data: 'bad thing' },
    ]);
    expect(
      loud.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params),
    ).toEqual([
      { level: 'info', data: { step: 1 } },
      { level: 'error', data: 'broken', logger: 'db' },
    ]);
  });
});

describe('McpServer pagination', () => {
  it('pages every list with opaque cursors that survive additions and removals', async () => {
    const { server } = newServer({ pageSize: 2 });
    const tools = ['a', 'b', 'c', 'd', 'e'].map((name) => server.tool(name, () => name));
    for (const name of ['p1', 'p2', 'p3']) server.prompt(name, () => name);
    for (const n of [1, 2, 3]) server.resourceTemplate(`test://t${n}/{x}`, { name: `t${n}` }, () => 'x');
    const { client } = await connect(server);
    const page1 = await client.request<ListToolsResult>('tools/list', {});
    expect(page1.tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(typeof page1.nextCursor).toBe('string');
    tools[2]!.remove(); // "c", the next item, goes away between pages
    server.tool('f', () => 'f');
    const page2 = await client.request<ListToolsResult>('tools/list', { cursor: page1.nextCursor });
    expect(page2.tools.map((t) => t.name)).toEqual(['d', 'e']);
    const page3 = await client.request<ListToolsResult>('tools/list', { cursor: page2.nextCursor });
    expect(page3.tools.map((t) => t.name)).toEqual(['f']);
    expect(page3.nextCursor).toBeUndefined();

    const prompts1 = await client.request<ListPromptsResult>('prompts/list', {});
    const prompts2 = await client.request<ListPromptsResult>('prompts/list', { cursor: prompts1.nextCursor });
    expect([...prompts1.prompts, ...prompts2.prompts].map((p) => p.name)).toEqual(['p1', 'p2', 'p3']);
    expect(prompts2.nextCursor).toBeUndefined();

    const templates1 = await client.request<ListResourceTemplatesResult>('resources/templates/list', {});
    const templates2 = await client.request<ListResourceTemplatesResult>('resources/templates/list', {
      cursor: templates1.nextCursor,
    });
    expect([...templates1.resourceTemplates, ...templates2.resourceTemplates].map((t) => t.name)).toEqual([
      't1',
      't2',
      't3',
    ]);
  });

  it('pages resources across static resources and template listings', async () => {
    const { server } = newServer({ pageSize: 2 });
    server.resource('test://s1', () => 's');
    server.resource('test://s2', () => 's');
    server.resource('test://s3', () => 's');
    server.resourceTemplate(
      'test://dyn/{n}',
      { name: 'dyn', list: () => [1, 2, 3].map((n) => ({ uri: `test://dyn/${n}`, name: `dyn ${n}` })) },
      () => 'd',
    );
    server.resourceTemplate('test://quiet/{n}', { name: 'quiet' }, () => 'q');
    server.resourceTemplate(
      'test://more/{n}',
      { name: 'more', list: () => [{ uri: 'test://more/1', name: 'more 1' }] },
      () => 'm',
    );
    const { client } = await connect(server);
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: ListResourcesResult = await client.request(
        'resources/list',
        cursor === undefined ? {} : { cursor },
      );
      expect(page.resources.length).toBeLessThanOrEqual(2);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(uris).toEqual([
      'test://s1',
      'test://s2',
      'test://s3',
      'test://dyn/1',
      'test://dyn/2',
      'test://dyn/3',
      'test://more/1',
    ]);
  });

  it('answers a bad or foreign cursor with -32602', async () => {
    const { server } = newServer({ pageSize: 1 });
    server.tool('a', () => 'a');
    server.tool('b', () => 'b');
    server.prompt('p', () => 'p');
    server.prompt('q', () => 'q');
    server.resource('test://a', () => 'a');
    const { client } = await connect(server);
    const promptCursor = (await client.request<ListPromptsResult>('prompts/list', {})).nextCursor;
    for (const cursor of ['garbage', '', 'dDE2!', promptCursor, 'x'.repeat(500)]) {
      await expect(client.request('tools/list', { cursor })).rejects.toMatchObject({ code: -32602 });
    }
    await expect(client.request('resources/list', { cursor: 'bogus' })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.request('resources/templates/list', { cursor: promptCursor })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('McpServer dispatch', () => {
  it('setRequestHandler on an McpServer refuses a method its features answer, instead of silently replacing (or being replaced by) registered tools', () => {
    const { server } = newServer();
    for (const method of ['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'logging/setLevel']) {
      expect(() => server.setRequestHandler(method, () => ({}))).toThrow(
        new RegExp(`"${method.replace('/', '\\/')}" is answered by McpServer .*low-level Server`),
      );
    }
    expect(() => server.setRequestHandler('ping', () => ({}))).toThrow(/answered by the session itself/);
    expect(() => server.setRequestHandler('com.example/search', () => ({ hits: [] }))).not.toThrow();
  });

  it('every request the server answers, initialize and ping included, passes through Server.dispatch', async () => {
    const seen: string[] = [];
    class WatchedServer extends McpServer {
      override dispatch(method: string, params: Record<string, unknown>, ctx: RequestContext): unknown {
        seen.push(method);
        return super.dispatch(method, params, ctx);
      }
    }
    const server = new WatchedServer(
      { name: 'watched', version: '1.0.0' },
      { onError: vi.fn(), resources: resourceSupport, prompts: promptSupport },
    );
    server.tool('t', () => 'x');
    server.resource('test://r', () => 'r');
    server.resourceTemplate('test://t/{id}', { name: 't', complete: { id: () => ['1'] } }, () => 't');
    server.prompt('p', () => 'p');
    server.setRequestHandler('com.example/search', () => ({ hits: [] }));
    const { client, call } = await connect(server);
    await client.ping();
    await client.request('tools/list');
    await call('t');
    await client.request('resources/list');
    await client.request('resources/templates/list');
    await client.request('resources/read', { uri: 'test://r' });
    await client.request('resources/subscribe', { uri: 'test://r' });
    await client.request('resources/unsubscribe', { uri: 'test://r' });
    await client.request('prompts/list');
    await client.request('prompts/get', { name: 'p' });
    await client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://t/{id}' },
      argument: { name: 'id', value: '' },
    });
    await client.request('logging/setLevel', { level: 'info' });
    await client.request('com.example/search', {});
    expect(seen).toEqual([
      'initialize',
      'ping',
      'tools/list',
      'tools/call',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'resources/subscribe',
      'resources/unsubscribe',
      'prompts/list',
      'prompts/get',
      'completion/complete',
      'logging/setLevel',
      'com.example/search',
    ]);
  });
});
