/**
 * Interoperability over real Streamable HTTP, feature by feature, every peer on 127.0.0.1:
 *
 * 1. the official `Client` + `StreamableHTTPClientTransport` against mcpkit's server
 *    (`createStreamableHttpHandler` served by `@mcpkit/node/http`), answering with JSON bodies,
 *    with SSE streams, and stateless;
 * 2. mcpkit's `McpClient` + `@mcpkit/client/http` against the official server
 *    (`StreamableHTTPServerTransport`) in the same three shapes;
 * 3. mcpkit's `McpClient` against `@modelcontextprotocol/server-everything` in its HTTP mode: every
 *    tool, resource, template and prompt it lists.
 *
 * Stdio is covered by interop-sdk.test.ts and interop-everything.test.ts. Each describe block starts
 * its server once. Every message either way goes through a SchemaRecorder on the client's end,
 * so it is also checked against the official schema.
 *
 * What a stateless server cannot do, by construction: keep a subscription or a log level, send a
 * request to the client (the client's answer would reach no session), or send anything outside a
 * request's answer stream. The stateless blocks check that those end cleanly rather than hang.
 */
import {
  callToolAndWait,
  callToolAsTask,
  cancelTask,
  getTask,
  getTaskResult,
  listTasks,
  McpClient,
  pollTask,
} from '@mcpkit/client';
import { connectHttp, HttpClientTransport, StreamableHttpClientTransport } from '@mcpkit/client/http';
import {
  type CallToolResult,
  type CreateMessageRequestParams,
  type ElicitRequestURLParams,
  type LoggingMessageNotificationParams,
  McpError,
  type ProgressUpdate,
  type Prompt,
  RequestCancelledError,
  RequestTimeoutError,
  type ResourceTemplate,
  type Tool,
  UrlElicitationRequiredError,
} from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EverythingHttpServer,
  listeningAddresses,
  startEverythingHttp,
} from './fixtures/everythingHttp.js';
import { createMcpkitServer, TINY_PNG } from './fixtures/mcpkitServer.js';
import { ClientProbe, probingClient, ROOT, textOf, tick, until } from './fixtures/probe.js';
import { sampleObject, sampleValue } from './fixtures/sampleValues.js';
import { fromSdkTransport, toSdkTransport } from './fixtures/sdkBridge.js';
import { type SdkHttpMode, type SdkHttpServer, startSdkHttpServer } from './fixtures/sdkHttpServer.js';
import { SdkProbe, type SdkProbingClient, sdkProbingClient, sdkText } from './fixtures/sdkProbingClient.js';
import { SchemaRecorder } from './support/officialSchema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Aborts `controller` with `reason` once the call is known to run: its first progress update. */
function abortOnProgress(controller: AbortController, reason: string): () => void {
  return () => controller.abort(reason);
}

// -------------------------------------------------------------------------------------------------
// 1. official Client → mcpkit server

const MCPKIT_SERVER_MODES: ReadonlyArray<[string, StreamableHttpHandlerOptions]> = [
  ['JSON responses', { enableJsonResponse: true }],
  ['SSE responses', {}],
  ['stateless', { stateless: true }],
];

describe.each(MCPKIT_SERVER_MODES)(
  'official Client → mcpkit McpServer over Streamable HTTP (%s)',
  (_mode, handlerOptions) => {
    const stateless = handlerOptions.stateless === true;
    const probe = new SdkProbe();
    const recorder = new SchemaRecorder({ side: 'client' });
    const serverErrors: Error[] = [];
    const server = createMcpkitServer({ onError: (error) => serverErrors.push(error) });
    /** The signals of `hold` calls, to watch a handler stop from the server's side. */
    const held: AbortSignal[] = [];
    server.tool('hold', { description: 'Runs until its signal fires' }, async (_args, ctx) => {
      held.push(ctx.signal);
      await ctx.progress(1);
      if (!ctx.signal.aborted) {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      }
      return 'released';
    });
    let served: ServedHandler;
    let http: StreamableHTTPClientTransport;
    let client: SdkProbingClient;
    const call = (name: string, args: Record<string, unknown> = {}, options?: RequestOptions) =>
      client.callTool({ name, arguments: args }, undefined, options);

    beforeAll(async () => {
      served = await serve(createStreamableHttpHandler(server, handlerOptions), { path: '/mcp' });
      http = new StreamableHTTPClientTransport(new URL(served.url));
      client = sdkProbingClient(probe);
      await client.connect(toSdkTransport(recorder.wrap(fromSdkTransport(http))));
      await client.setLoggingLevel('debug');
    });

    afterAll(async () => {
      await client?.close();
      await served?.close();
    });

    it('listens on 127.0.0.1 only, initializes on 2025-11-25 and pings', async () => {
      expect(new URL(served.url).hostname).toBe('127.0.0.1');
      expect(listeningAddresses(served.port)).toEqual(['127.0.0.1']);
      expect(http.protocolVersion).toBe('2025-11-25');
      if (stateless) expect(http.sessionId).toBeUndefined();
      else expect(http.sessionId).toMatch(UUID);
      expect(client.getServerVersion()).toMatchObject({ name: 'mcpkit-fixture', version: '1.0.0' });
      expect(client.getServerCapabilities()).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
      await client.ping();
    });

    it('lists tools and calls them: structuredContent, isError, every content kind', async () => {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'add')).toMatchObject({
        annotations: { readOnlyHint: true },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } } },
      });
      // The official client checks structuredContent against the outputSchema it listed.
      const sum = await call('add', { a: 2, b: 3 });
      expect(sum.structuredContent).toEqual({ sum: 5 });
      expect(JSON.parse(sdkText(sum))).toEqual({ sum: 5 });
      expect(await call('fail')).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'it went wrong' }],
      });
      const invalid = await call('add', { a: 'two', b: 3 });
      expect(invalid.isError).toBe(true);
      const media = await call('media');
      expect((media.content as Array<{ type: string }>).map((block) => block.type)).toEqual([
        'text',
        'image',
        'audio',
        'resource_link',
        'resource',
      ]);
      await expect(call('no-such-tool')).rejects.toMatchObject({ code: -32602 });
    });

    it('streams progress for a tool call before its result', async () => {
      const updates: unknown[] = [];
      const result = await call('count', { steps: 3 }, { onprogress: (update) => updates.push(update) });
      expect(sdkText(result)).toBe('counted to 3');
      expect(updates).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    });

    if (!stateless) {
      it('cancels a tool call: the handler’s signal fires with the client’s reason', async () => {
        const controller = new AbortController();
        const pending = call(
          'wait-for-cancel',
          {},
          { signal: controller.signal, onprogress: abortOnProgress(controller, 'user pressed stop') },
        );
        await expect(pending).rejects.toThrow();
        await until(
          () => probe.logs.some((log) => String(log.data).startsWith('cancelled')),
          'the server log',
        );
        expect(probe.logs.find((log) => String(log.data).startsWith('cancelled'))?.data).toContain(
          'user pressed stop',
        );
      });
    } else {
      it('cancels a tool call: the call ends at once, and the handler stops when the client leaves', async () => {
        // notifications/cancelled arrives in a POST of its own, which no session ties to the call
        // it names; the handler learns of the end when the client closes the call's connection.
        const other = sdkProbingClient(new SdkProbe());
        await other.connect(new StreamableHTTPClientTransport(new URL(served.url)));
        const controller = new AbortController();
        const before = held.length;
        const pending = other.callTool({ name: 'hold', arguments: {} }, undefined, {
          signal: controller.signal,
          onprogress: abortOnProgress(controller, 'user pressed stop'),
        });
        await expect(pending).rejects.toThrow('user pressed stop');
        expect(held.length).toBe(before + 1);
        await other.close();
        await until(() => held[before]!.aborted, 'the handler to be stopped');
      });
    }

    it('lists and reads resources and templates, completing a template variable', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['mem://readme', 'mem://logo', 'mem://notes/1', 'mem://notes/3']),
      );
      const readme = await client.readResource({ uri: 'mem://readme' });
      expect(readme.contents).toEqual([{ uri: 'mem://readme', mimeType: 'text/markdown', text: '# Hello' }]);
      const logo = await client.readResource({ uri: 'mem://logo' });
      expect(logo.contents[0]).toMatchObject({ mimeType: 'image/png', blob: TINY_PNG });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ name: 'note', uriTemplate: 'mem://notes/{id}' }),
      ]);
      const note = await client.readResource({ uri: 'mem://notes/2' });
      expect(note.contents[0]).toMatchObject({ uri: 'mem://notes/2', text: 'second note' });
      await expect(client.readResource({ uri: 'mem://nothing' })).rejects.toMatchObject({ code: -32002 });
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: 'mem://notes/{id}' },
        argument: { name: 'id', value: '' },
      });
      expect(completion.values).toEqual(['1', '2', '3']);
    });

    it('lists and gets prompts, completing an argument', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.find((p) => p.name === 'greet')?.arguments).toEqual([
        expect.objectContaining({ name: 'name', required: true }),
      ]);
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: 'A' },
      });
      expect(completion.values).toEqual(['Ada', 'Alan']);
      const greet = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
      expect(greet.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
      const plain = await client.getPrompt({ name: 'plain' });
      expect(plain.messages[1]?.content).toMatchObject({
        type: 'resource',
        resource: { uri: 'mem://readme' },
      });
      await expect(client.getPrompt({ name: 'greet' })).rejects.toMatchObject({ code: -32602 });
    });

    it('answers -32042 with the required URL elicitations', async () => {
      const error = await call('needs-auth').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32042 });
      expect((error as { data?: unknown }).data).toEqual({
        elicitations: [
          {
            mode: 'url',
            message: 'Authorize',
            url: 'https://example.com/authorize',
            elicitationId: 'auth-1',
          },
        ],
      });
    });

    if (!stateless) {
      it('subscribes, receives resources/updated, and stops after unsubscribing', async () => {
        await client.subscribeResource({ uri: 'mem://readme' });
        await call('touch', { uri: 'mem://readme' });
        await until(() => probe.updates.includes('mem://readme'), 'resources/updated');
        await client.unsubscribeResource({ uri: 'mem://readme' });
        const before = probe.updates.length;
        await call('touch', { uri: 'mem://readme' });
        await client.ping();
        await tick(50);
        expect(probe.updates.length).toBe(before);
      });

      it('filters log messages by logging/setLevel', async () => {
        await client.setLoggingLevel('warning');
        const before = probe.logs.length;
        await call('log');
        await client.ping();
        expect(probe.logs.slice(before).map((log) => log.data)).toEqual(['at warning', 'at error']);
        await client.setLoggingLevel('debug');
      });

      it('pings the client and answers sampling, including tools, tool_use and tool_result', async () => {
        expect(sdkText(await call('ping-client'))).toBe('pong');
        expect(sdkText(await call('ask-model'))).toBe('fake-model: [{"type":"text","text":"4"}]');
        expect(probe.sampling.at(-1)).toMatchObject({ systemPrompt: 'Be brief', maxTokens: 20 });
        expect(sdkText(await call('ask-model-with-tools'))).toBe(
          'toolUse/endTurn: [{"type":"text","text":"It is sunny"}]',
        );
        const [first, second] = probe.sampling.slice(-2);
        expect(first).toMatchObject({ toolChoice: { mode: 'auto' }, tools: [{ name: 'weather' }] });
        expect(second?.messages[2]?.content).toEqual([
          { type: 'tool_result', toolUseId: 'use-1', content: [{ type: 'text', text: 'sunny, 21°C' }] },
        ]);
      });

      it('receives the client’s progress for a sampling request, and cancels one', async () => {
        expect(sdkText(await call('ask-model-with-progress'))).toBe('progress: 1,2');
        expect(probe.progressOfSampling).toBe(2);
        expect(sdkText(await call('ask-model-then-cancel'))).toMatch(/^rejected:/);
        await until(() => probe.samplingAborted, 'the sampling handler to see the abort');
      });

      it('elicits a form and a URL, and sends notifications/elicitation/complete', async () => {
        const answer = JSON.parse(sdkText(await call('ask-user')));
        expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, color: 'blue' } });
        expect(sdkText(await call('ask-url'))).toBe('accept');
        expect(probe.urlElicitations.at(-1)).toMatchObject({
          mode: 'url',
          url: 'https://example.com/consent',
        });
        await until(() => probe.completedElicitations.includes('consent-1'), 'elicitation/complete');
      });

      it('lists the client’s roots and hears roots/list_changed', async () => {
        expect(JSON.parse(sdkText(await call('list-roots')))).toEqual([ROOT]);
        await client.setRoots([ROOT, { uri: 'file:///tmp' }]);
        await until(() => probe.logged('roots changed'), 'the server to see roots/list_changed');
        expect(JSON.parse(sdkText(await call('list-roots')))).toHaveLength(2);
      });

      it('announces tools, prompts and resources list_changed on the GET stream', async () => {
        await call('grow');
        await until(
          () => ['tools', 'prompts', 'resources'].every((k) => probe.listChanges.includes(k)),
          'list_changed',
        );
        expect((await client.listTools()).tools.some((tool) => tool.name === 'grown')).toBe(true);
      });

      it('reported no error on the server side', () => {
        expect(serverErrors).toEqual([]);
      });
    } else {
      it('delivers a call’s logs on its answer stream (a log level cannot outlive its request)', async () => {
        await client.setLoggingLevel('warning');
        const before = probe.logs.length;
        expect(sdkText(await call('log'))).toBe('logged');
        expect(probe.logs.slice(before).map((log) => log.data)).toEqual([
          'at debug',
          'at info',
          'at warning',
          'at error',
        ]);
      });

      it('refuses sampling, elicitation, roots and ping at once, with a reason, never asking the client', async () => {
        const refusals: Record<string, RegExp> = {
          'ask-model': /sampling/,
          'ask-user': /elicitation/,
          'ask-url': /elicitation/,
          'list-roots': /roots/,
          // No capability guards ping: the transport itself must refuse (it used to hang until the
          // request timed out, as the answer could never come back).
          'ping-client': /stateless/,
        };
        for (const [tool, reason] of Object.entries(refusals)) {
          const started = Date.now();
          const result = await call(tool);
          expect(result.isError, tool).toBe(true);
          expect(sdkText(result), tool).toMatch(reason);
          expect(Date.now() - started, tool).toBeLessThan(2000);
        }
        expect(probe.sampling).toEqual([]);
        expect(probe.urlElicitations).toEqual([]);
        expect(probe.rootsAsked).toBe(0);
        expect(serverErrors.length).toBeGreaterThan(0); // each refusal is also reported server-side
      });
    }

    it('every message matched the official schema', () => {
      expect(recorder.checked).toBeGreaterThan(stateless ? 30 : 60);
      recorder.assertClean();
    });
  },
);

// -------------------------------------------------------------------------------------------------
// 2. mcpkit McpClient → official server

/** How mcpkit's client reaches the official server in each mode. */
const SDK_SERVER_MODES: ReadonlyArray<[SdkHttpMode, 'streamable' | 'auto']> = [
  ['sse', 'streamable'],
  ['json', 'auto'],
  ['stateless', 'streamable'],
];

describe.each(SDK_SERVER_MODES)(
  'mcpkit McpClient → official McpServer over Streamable HTTP (%s, %s transport)',
  (mode, transportKind) => {
    const stateless = mode === 'stateless';
    const probe = new ClientProbe();
    const recorder = new SchemaRecorder({ side: 'client' });
    let sdk: SdkHttpServer;
    let transport: StreamableHttpClientTransport | HttpClientTransport;
    let client: McpClient;

    beforeAll(async () => {
      sdk = await startSdkHttpServer({ mode });
      transport =
        transportKind === 'auto'
          ? new HttpClientTransport(sdk.url)
          : new StreamableHttpClientTransport(sdk.url);
      client = probingClient(probe);
      await client.connect(recorder.wrap(transport));
      await client.setLoggingLevel('debug');
    });

    afterAll(async () => {
      await client?.close();
      await sdk?.close();
    });

    it('initializes on 2025-11-25 and pings', async () => {
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(client.serverInfo).toMatchObject({ name: 'sdk-fixture', version: '1.0.0' });
      expect(client.instructions).toBe('Official SDK fixture');
      if (stateless) expect(transport.sessionId).toBeUndefined();
      else expect(transport.sessionId).toMatch(UUID);
      if (transport instanceof HttpClientTransport) expect(transport.kind).toBe('streamable-http');
      await client.ping();
    });

    it('lists tools and calls them: structuredContent checked against outputSchema, isError, images', async () => {
      const tools = await client.tools();
      const add = tools.find((tool) => tool.name === 'add');
      expect(add?.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } });
      const sum = await client.callTool('add', { a: 2, b: 3 });
      expect(sum.structuredContent).toEqual({ sum: 5 });
      expect(textOf(sum)).toBe('5');
      const failed = await client.callTool('fail');
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toBe('it went wrong');
      const image = await client.callTool('image');
      expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    });

    if (mode === 'json') {
      it('gets the result of a call whose progress the official server drops in JSON mode', async () => {
        // The official transport writes notifications that belong to a request only to an SSE
        // answer; with enableJsonResponse it discards them (webStandardStreamableHttp.js, send).
        const updates: ProgressUpdate[] = [];
        const result = await client.callTool('count', { steps: 3 }, { onProgress: (u) => updates.push(u) });
        expect(textOf(result)).toBe('counted to 3');
        expect(updates).toEqual([]);
      });
    } else {
      it('receives progress for a tool call', async () => {
        const updates: ProgressUpdate[] = [];
        const result = await client.callTool('count', { steps: 3 }, { onProgress: (u) => updates.push(u) });
        expect(textOf(result)).toBe('counted to 3');
        expect(updates).toEqual([
          { progress: 1, total: 3, message: 'step 1' },
          { progress: 2, total: 3, message: 'step 2' },
          { progress: 3, total: 3, message: 'step 3' },
        ]);
      });
    }

    if (!stateless) {
      it('cancels a tool call: the server sees notifications/cancelled', async () => {
        const controller = new AbortController();
        // In JSON mode no progress comes back to say the call runs: give it a moment instead.
        if (mode === 'json') setTimeout(() => controller.abort('user pressed stop'), 100);
        const pending = client.callTool(
          'wait-for-cancel',
          {},
          { signal: controller.signal, onProgress: abortOnProgress(controller, 'user pressed stop') },
        );
        await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
        await until(
          () => probe.logs.some((log) => String(log.data).startsWith('cancelled')),
          'the server log',
        );
        expect(probe.logs.find((log) => String(log.data).startsWith('cancelled'))?.data).toContain(
          'user pressed stop',
        );
      });
    } else {
      it('cancels a tool call: it rejects at once, and the client stays usable', async () => {
        const controller = new AbortController();
        const pending = client.callTool(
          'wait-for-cancel',
          {},
          { signal: controller.signal, onProgress: abortOnProgress(controller, 'user pressed stop') },
        );
        await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
        await expect(client.callTool('add', { a: 1, b: 1 })).resolves.toMatchObject({
          structuredContent: { sum: 2 },
        });
      });

      it('closes right after a cancellation without reporting the POST it cut off', async () => {
        // Regression: close() aborted the notifications/cancelled POST still in flight, and the
        // AbortError reached onError (printed by default) although the caller had closed on purpose.
        const errors: Error[] = [];
        const other = probingClient(new ClientProbe(), { onError: (error) => errors.push(error) });
        await other.connect(new StreamableHttpClientTransport(sdk.url));
        const controller = new AbortController();
        const pending = other.callTool(
          'wait-for-cancel',
          {},
          { signal: controller.signal, onProgress: abortOnProgress(controller, 'user pressed stop') },
        );
        await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
        await other.close();
        await tick(50);
        expect(errors).toEqual([]);
      });
    }

    it('lists and reads resources and templates, completing a template variable', async () => {
      const resources = await client.resources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['mem://readme', 'mem://logo', 'mem://notes/1', 'mem://notes/3']),
      );
      const readme = await client.readResource('mem://readme');
      expect(readme.contents).toEqual([{ uri: 'mem://readme', mimeType: 'text/markdown', text: '# Hello' }]);
      const logo = await client.readResource('mem://logo');
      expect(logo.contents[0]).toMatchObject({ mimeType: 'image/png', blob: TINY_PNG });
      const templates = await client.resourceTemplates();
      expect(templates).toEqual([expect.objectContaining({ name: 'note', uriTemplate: 'mem://notes/{id}' })]);
      const note = await client.readResource('mem://notes/2');
      expect(note.contents[0]).toMatchObject({ uri: 'mem://notes/2', text: 'second note' });
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: 'mem://notes/{id}' },
        argument: { name: 'id', value: '' },
      });
      expect(completion.values).toEqual(['1', '2', '3']);
    });

    it('lists and gets prompts, completing an argument', async () => {
      const prompts = await client.prompts();
      expect(prompts.find((p) => p.name === 'greet')?.arguments).toEqual([
        expect.objectContaining({ name: 'name', required: true }),
      ]);
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: 'A' },
      });
      expect(completion.values).toEqual(['Ada', 'Alan']);
      const greet = await client.getPrompt('greet', { name: 'Ada' });
      expect(greet.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    });

    it('surfaces -32042 as UrlElicitationRequiredError', async () => {
      const error = await client.callTool('needs-auth').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect((error as UrlElicitationRequiredError).elicitations).toEqual([
        { mode: 'url', message: 'Authorize', url: 'https://example.com/authorize', elicitationId: 'auth-1' },
      ]);
    });

    if (!stateless) {
      it('subscribes, receives resources/updated on the GET stream, and stops after unsubscribing', async () => {
        await client.subscribeResource('mem://readme');
        await client.callTool('touch', { uri: 'mem://readme' });
        await until(() => probe.updates.includes('mem://readme'), 'resources/updated');
        await client.unsubscribeResource('mem://readme');
        const before = probe.updates.length;
        await client.callTool('touch', { uri: 'mem://readme' });
        await client.ping();
        await tick(50);
        expect(probe.updates.length).toBe(before);
      });

      it('filters log messages by logging/setLevel', async () => {
        await client.setLoggingLevel('warning');
        const before = probe.logs.length;
        await client.callTool('log-to-session');
        await until(() => probe.logs.length >= before + 2, 'the logs');
        await client.ping();
        await tick(50);
        expect(probe.logs.slice(before).map((log) => log.data)).toEqual(['at warning', 'at error']);
        await client.setLoggingLevel('debug');
      });

      it('answers ping and sampling from the server, including tools, tool_use and tool_result', async () => {
        expect(textOf(await client.callTool('ping-client'))).toBe('pong');
        expect(textOf(await client.callTool('ask-model'))).toBe('fake-model: [{"type":"text","text":"4"}]');
        expect(probe.sampling.at(-1)).toMatchObject({ systemPrompt: 'Be brief', maxTokens: 20 });
        const withTools = await client.callTool('ask-model-with-tools');
        expect(textOf(withTools)).toBe('toolUse/endTurn: [{"type":"text","text":"It is sunny"}]');
        const second = probe.sampling.at(-1);
        expect(second?.messages[2]?.content).toEqual([
          { type: 'tool_result', toolUseId: 'use-1', content: [{ type: 'text', text: 'sunny, 21°C' }] },
        ]);
      });

      it('sends progress for a sampling request, and honours the server cancelling one', async () => {
        expect(textOf(await client.callTool('ask-model-with-progress'))).toBe('progress: 1,2');
        expect(textOf(await client.callTool('ask-model-then-cancel'))).toMatch(/^rejected:/);
        await until(() => probe.samplingAborted, 'the sampling handler to see the abort');
      });

      it('answers form and URL elicitation, and receives notifications/elicitation/complete', async () => {
        const answer = JSON.parse(textOf(await client.callTool('ask-user')));
        expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, color: 'blue' } });
        expect(textOf(await client.callTool('ask-url'))).toBe('accept');
        expect(probe.urlElicitations.at(-1)).toMatchObject({ url: 'https://example.com/consent' });
        await until(() => probe.completedElicitations.includes('consent-1'), 'elicitation/complete');
      });

      it('serves roots and announces roots/list_changed', async () => {
        expect(JSON.parse(textOf(await client.callTool('list-roots')))).toEqual([ROOT]);
        await client.setRoots([ROOT, { uri: 'file:///tmp' }]);
        await until(() => probe.logged('roots changed'), 'the server to see roots/list_changed');
        expect(JSON.parse(textOf(await client.callTool('list-roots')))).toHaveLength(2);
      });

      it('refreshes its caches on tools, prompts and resources list_changed', async () => {
        await client.callTool('grow');
        await until(
          () => ['tools', 'prompts', 'resources'].every((k) => probe.listChanges.includes(k)),
          'list_changed',
        );
        expect((await client.tools()).some((tool) => tool.name === 'grown')).toBe(true);
        expect((await client.prompts()).some((prompt) => prompt.name === 'grown-prompt')).toBe(true);
      });
    } else {
      it('receives logs sent on a call’s answer stream', async () => {
        const before = probe.logs.length;
        expect(textOf(await client.callTool('log-in-call'))).toBe('logged');
        expect(probe.logs.slice(before).map((log) => log.data)).toEqual(['in call']);
      });

      it('gets a clean refusal for elicitation; sampling and roots never reach it', async () => {
        for (const tool of ['ask-user', 'ask-url']) {
          const result = await client.callTool(tool);
          expect(result.isError, tool).toBe(true);
          expect(textOf(result), tool).toMatch(/does not support/);
        }
        // The official stateless server checks no capability before sampling or roots/list and
        // sends them outside the call, to a GET stream a stateless server never has: they are
        // dropped and its request waits for its own 60 s timeout. The client can only time out.
        for (const tool of ['ask-model', 'list-roots']) {
          const outcome = client.callTool(tool, {}, { timeout: 300 });
          await expect(outcome, tool).rejects.toBeInstanceOf(RequestTimeoutError);
        }
        expect(probe.sampling).toEqual([]);
        expect(probe.urlElicitations).toEqual([]);
      });
    }

    if (mode === 'json') {
      it('connectHttp finds Streamable HTTP and works end to end', async () => {
        const other = new McpClient({ name: 'connect-http', version: '1.0.0' });
        const found = await connectHttp(other, sdk.url);
        try {
          expect(found.kind).toBe('streamable-http');
          expect(found.sessionId).toMatch(UUID);
          await expect(other.callTool('add', { a: 4, b: 5 })).resolves.toMatchObject({
            structuredContent: { sum: 9 },
          });
        } finally {
          await other.close();
        }
        await until(() => sdk.sessionCount === 1, 'DELETE to end the second session');
      });
    }

    it('every message matched the official schema', () => {
      expect(recorder.checked).toBeGreaterThan(stateless ? 25 : 50);
      recorder.assertClean();
    });
  },
);

// -------------------------------------------------------------------------------------------------
// 3. mcpkit McpClient → server-everything over Streamable HTTP

/** Arguments the schema alone would get wrong (see interop-everything.test.ts). */
const EVERYTHING_ARGUMENT_OVERRIDES: Readonly<Record<string, Record<string, unknown>>> = {
  'trigger-long-running-operation': { duration: 0.3, steps: 3 },
  'gzip-file-as-resource': { data: `data:text/plain;base64,${btoa('hello from mcpkit\n'.repeat(20))}` },
};
/** Tools that run only as tasks, checked by their own test. */
const EVERYTHING_TASK_TOOLS = new Set(['simulate-research-query']);
const EVERYTHING_ROOT = { uri: 'file:///work/mcpkit-interop', name: 'mcpkit-interop' };
const SAMPLED_TEXT = 'sampled by mcpkit';
const ELICITED_NAME = 'Ada Lovelace';

function texts(result: { content: CallToolResult['content'] }): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('mcpkit McpClient → server-everything over Streamable HTTP', () => {
  const recorder = new SchemaRecorder({ side: 'client' });
  const logs: LoggingMessageNotificationParams[] = [];
  const updates: string[] = [];
  const sampled: CreateMessageRequestParams[] = [];
  const urlElicitations: ElicitRequestURLParams[] = [];
  const formMessages: string[] = [];
  let rootsAsked = 0;
  let everything: EverythingHttpServer;
  let transport: StreamableHttpClientTransport;
  let client: McpClient;
  let tools: Tool[] = [];

  beforeAll(async () => {
    everything = await startEverythingHttp();
    client = new McpClient(
      { name: 'mcpkit-interop', version: '1.0.0' },
      {
        sampling: async (params) => {
          sampled.push(params);
          return {
            role: 'assistant',
            content: { type: 'text', text: SAMPLED_TEXT },
            model: 'mcpkit-test-model',
            stopReason: 'endTurn',
          };
        },
        elicitation: {
          form: async (params) => {
            formMessages.push(params.message);
            const content = sampleObject(params.requestedSchema) as Record<string, never>;
            if ('name' in content) Object.assign(content, { name: ELICITED_NAME });
            // The official schema types form numbers as integers: answer with whole numbers.
            for (const [key, value] of Object.entries(content)) {
              if (typeof value === 'number') Object.assign(content, { [key]: Math.round(value) });
            }
            if ('interpretation' in content) Object.assign(content, { interpretation: 'historical' });
            return { action: 'accept', content };
          },
          url: async (params) => {
            urlElicitations.push(params);
            return { action: 'accept' };
          },
        },
        roots: () => {
          rootsAsked++;
          return [EVERYTHING_ROOT];
        },
      },
    );
    client.onLog((message) => logs.push(message));
    client.onResourceUpdated((uri) => updates.push(uri));
    transport = new StreamableHttpClientTransport(everything.url);
    await client.connect(recorder.wrap(transport));
    tools = await client.tools();
  });

  afterAll(async () => {
    await client?.close();
    await everything?.close();
  });

  it('listens on 127.0.0.1 only (moved off the wildcard address by bind-localhost.mjs)', () => {
    expect(everything.address).toBe('127.0.0.1');
    expect(listeningAddresses(everything.port)).toEqual(['127.0.0.1']);
  });

  it('negotiated 2025-11-25 in a session, and sees the server’s declared capabilities', async () => {
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo?.name).toBe('mcp-servers/everything');
    expect(transport.sessionId).toMatch(UUID);
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('lists the tools that depend on the capabilities this client declared', () => {
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'echo',
        'get-roots-list',
        'trigger-sampling-request',
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'simulate-research-query',
      ]),
    );
  });

  it('answers the server’s roots/list (sent on the GET stream), and again after roots/list_changed', async () => {
    await until(() => rootsAsked > 0, 'the initial roots/list');
    let secondAsked = 0;
    await client.setRoots(() => {
      secondAsked++;
      return [EVERYTHING_ROOT, { uri: 'file:///work/second', name: 'second' }];
    });
    await until(() => secondAsked > 0, 'roots/list after roots/list_changed');
    expect(texts(await client.callTool('get-roots-list'))).toContain('file:///work/second');
  });

  it('calls every listed tool with arguments drawn from its inputSchema', async () => {
    await client.setLoggingLevel('debug');
    const failures: string[] = [];
    const called: string[] = [];
    for (const tool of tools) {
      if (EVERYTHING_TASK_TOOLS.has(tool.name)) continue;
      const args = { ...sampleObject(tool.inputSchema), ...EVERYTHING_ARGUMENT_OVERRIDES[tool.name] };
      const progress: ProgressUpdate[] = [];
      try {
        const result = await client.callTool(tool.name, args, {
          onProgress: (update) => progress.push(update),
        });
        called.push(tool.name);
        expect(result.isError, `${tool.name}: ${texts(result)}`).not.toBe(true);
        expect(result.content.length, tool.name).toBeGreaterThan(0);
        await checkEverythingTool(tool, args, result, progress);
      } catch (error) {
        failures.push(`${tool.name}(${JSON.stringify(args)}): ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(called.length).toBe(tools.length - EVERYTHING_TASK_TOOLS.size);
    // Stop the simulated logging again, so it does not run on for the rest of the session.
    if (called.includes('toggle-simulated-logging')) await client.callTool('toggle-simulated-logging');
  });

  /** What each well-known tool must have done beyond returning content. */
  async function checkEverythingTool(
    tool: Tool,
    args: Record<string, unknown>,
    result: CallToolResult,
    progress: ProgressUpdate[],
  ): Promise<void> {
    switch (tool.name) {
      case 'echo':
        expect(texts(result)).toContain(String(args.message));
        return;
      case 'get-sum':
        expect(texts(result)).toContain(String(Number(args.a) + Number(args.b)));
        return;
      case 'get-structured-content':
        // McpClient already validated it against the tool's outputSchema.
        expect(tool.outputSchema).toBeDefined();
        expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
        return;
      case 'get-tiny-image':
        expect(result.content.some((block) => block.type === 'image')).toBe(true);
        return;
      case 'get-annotated-message':
        expect(result.content.some((block) => block.annotations !== undefined)).toBe(true);
        return;
      case 'get-resource-links': {
        const links = result.content.filter((block) => block.type === 'resource_link');
        expect(links.length).toBeGreaterThan(0);
        for (const link of links)
          expect((await client.readResource(link.uri)).contents[0]?.uri).toBe(link.uri);
        return;
      }
      case 'get-resource-reference':
        expect(result.content.some((block) => block.type === 'resource')).toBe(true);
        return;
      case 'gzip-file-as-resource': {
        const link = result.content.find((block) => block.type === 'resource_link');
        expect(link).toBeDefined();
        const read = await client.readResource((link as { uri: string }).uri);
        expect(read.contents[0]).toMatchObject({ mimeType: 'application/gzip', blob: expect.any(String) });
        return;
      }
      case 'trigger-long-running-operation':
        expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
        expect(progress.every((p) => p.total === 3)).toBe(true);
        return;
      case 'get-roots-list':
        expect(texts(result)).toContain(EVERYTHING_ROOT.uri);
        return;
      case 'trigger-sampling-request':
        expect(texts(result)).toContain(SAMPLED_TEXT);
        expect(sampled.at(-1)?.messages[0]?.content).toMatchObject({
          text: expect.stringContaining('mcpkit'),
        });
        return;
      case 'trigger-elicitation-request':
        expect(texts(result)).toContain(ELICITED_NAME);
        return;
      case 'trigger-url-elicitation':
        expect(urlElicitations.at(-1)?.url).toBe(args.url);
        expect(texts(result)).toContain('completed');
        return;
      case 'toggle-simulated-logging':
        await until(() => logs.length > 0, 'a simulated log message');
        return;
      default:
        return;
    }
  }

  it('cancels a long-running tool call mid-way', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const pending = client.callTool(
      'trigger-long-running-operation',
      { duration: 5, steps: 5 },
      {
        signal: controller.signal,
        onProgress: (update) => {
          progress.push(update.progress);
          controller.abort('enough');
        },
      },
    );
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(progress).toEqual([1]);
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('turns a -32042 error into UrlElicitationRequiredError, and the retry succeeds', async () => {
    const args = { url: 'https://example.com/authorize', errorPath: true };
    const error = await client.callTool('trigger-url-elicitation', args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations[0]).toMatchObject({
      mode: 'url',
      url: expect.stringMatching(/^https:/),
    });
    expect(texts(await client.callTool('trigger-url-elicitation', args))).toContain('completed');
  });

  it('subscribes to a resource, receives resources/updated on the GET stream, and unsubscribes', async () => {
    const [resource] = await client.resources();
    expect(resource).toBeDefined();
    const uri = resource!.uri;
    await client.subscribeResource(uri);
    // The tool toggles updates; its first round is sent at once.
    const toggled = await client.callTool('toggle-subscriber-updates');
    if (texts(toggled).startsWith('Stopped')) await client.callTool('toggle-subscriber-updates');
    await until(() => updates.includes(uri), `resources/updated for ${uri}`);
    await client.unsubscribeResource(uri);
    await client.callTool('toggle-subscriber-updates');
  });

  it('reads every listed resource, following pagination', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor);
      for (const resource of page.resources) seen.add(resource.uri);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen.size).toBeGreaterThan(0);
    for (const uri of seen) {
      const { contents } = await client.readResource(uri);
      expect(contents[0]?.uri, uri).toBe(uri);
      const body = contents[0] as { text?: string; blob?: string };
      expect(body.text ?? body.blob, uri).toEqual(expect.any(String));
    }
  });

  it('reads an expansion of every resource template, using completion for the variable', async () => {
    const templates: ResourceTemplate[] = await client.resourceTemplates();
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) {
      const variable = /\{([a-zA-Z0-9_]+)\}/.exec(template.uriTemplate)?.[1];
      expect(variable, template.uriTemplate).toBeDefined();
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: template.uriTemplate },
        argument: { name: variable!, value: '' },
      });
      const value = completion.values[0] ?? '1';
      const uri = template.uriTemplate.replace(`{${variable}}`, encodeURIComponent(value));
      expect((await client.readResource(uri)).contents[0]?.uri).toBe(uri);
    }
  });

  it('gets every prompt, filling required arguments through completion/complete', async () => {
    const prompts: Prompt[] = await client.prompts();
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      const args: Record<string, string> = {};
      for (const argument of prompt.arguments ?? []) {
        if (argument.required) args[argument.name] = await suggestArgument(prompt.name, argument.name, args);
      }
      const result = await client.getPrompt(prompt.name, args);
      expect(result.messages.length, prompt.name).toBeGreaterThan(0);
    }
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  /** The server's first completion of an empty prefix, or of a typical id; a made-up string otherwise. */
  async function suggestArgument(prompt: string, name: string, known: Record<string, string>) {
    for (const value of ['', '1']) {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: prompt },
        argument: { name, value },
        context: { arguments: { ...known } },
      });
      if (completion.values[0] !== undefined) return completion.values[0];
    }
    return String(sampleValue({ type: 'string' }, name));
  }

  it('refuses a task-required tool called without a task', async () => {
    const outcome = await client.callTool('simulate-research-query', { topic: 'x' }).catch((e: unknown) => e);
    if (outcome instanceof McpError) return;
    expect((outcome as CallToolResult).isError).toBe(true);
    expect(texts(outcome as CallToolResult)).toMatch(/task/i);
  });

  it('runs the task tool: input_required elicitation, tasks/get, tasks/list, tasks/result, tasks/cancel, callToolAndWait', async () => {
    const formsBefore = formMessages.length;
    const statuses: string[] = [];
    const created = await callToolAsTask(
      client,
      'simulate-research-query',
      { topic: 'history of computing', ambiguous: true },
      { ttl: 60_000 },
    );
    expect(created.task).toMatchObject({ taskId: expect.any(String), status: 'working' });
    const taskId = created.task.taskId;
    // A second run in parallel, driven by the convenience helper: the research takes seconds.
    const waited = callToolAndWait(client, 'simulate-research-query', { topic: 'compilers' });

    const doomed = await callToolAsTask(client, 'simulate-research-query', { topic: 'to be cancelled' });
    expect((await cancelTask(client, doomed.task.taskId)).status).toBe('cancelled');
    await expect(cancelTask(client, doomed.task.taskId)).rejects.toMatchObject({ code: -32602 });
    const listed = await listTasks(client);
    expect(listed.tasks.map((task) => task.taskId)).toEqual(
      expect.arrayContaining([taskId, doomed.task.taskId]),
    );
    expect(['working', 'input_required']).toContain((await getTask(client, taskId)).status);
    await expect(getTask(client, 'no-such-task')).rejects.toMatchObject({ code: -32602 });

    const needsInput = await pollTask(client, taskId, {
      stopOnInputRequired: true,
      onStatus: (task) => statuses.push(task.status),
    });
    expect(needsInput.status).toBe('input_required');
    const result = await getTaskResult<CallToolResult>(client, taskId, { timeout: 15_000 });
    expect(formMessages.length).toBeGreaterThan(formsBefore);
    expect(texts(result)).toContain('historical');
    expect((await getTask(client, taskId)).status).toBe('completed');
    expect(statuses).toContain('input_required');
    expect(texts(await waited)).toContain('compilers');
  }, 20_000);

  it('every message either way matched the official 2025-11-25 schema', () => {
    expect(recorder.checked).toBeGreaterThan(50);
    recorder.assertClean();
  });
});
