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
import { callToolAndWait, McpClient } from '@mcpkit/client';
import { connectHttp, HttpClientTransport, StreamableHttpClientTransport } from '@mcpkit/client/http';
import {
  type CallToolResult,
  type ProgressUpdate,
  RequestCancelledError,
  RequestTimeoutError,
  type Tool,
} from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EverythingHttpServer,
  listeningAddresses,
  startEverythingHttp,
} from './fixtures/everythingHttp.js';
import * as everythingChecks from './fixtures/everythingSuite.js';
import { EverythingObserver, everythingClient, texts } from './fixtures/everythingSuite.js';
import { createMcpkitServer, TINY_PNG } from './fixtures/mcpkitServer.js';
import * as officialChecks from './fixtures/mcpkitServerSuite.js';
import { officialPeer } from './fixtures/mcpkitServerSuite.js';
import { ClientProbe, countProgress, probingClient, textOf, tick } from './fixtures/probe.js';
import { fromSdkTransport, toSdkTransport } from './fixtures/sdkBridge.js';
import { type SdkHttpMode, type SdkHttpServer, startSdkHttpServer } from './fixtures/sdkHttpServer.js';
import { SdkProbe, type SdkProbingClient, sdkProbingClient, sdkText } from './fixtures/sdkProbingClient.js';
import * as sdkChecks from './fixtures/sdkServerSuite.js';
import { eventually as until } from './support/eventually.js';
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
    const peer = officialPeer(() => client, probe);
    const { call } = peer;

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
      officialChecks.expectFixtureServerInfo(peer);
      await client.ping();
    });

    it('lists tools and calls them: structuredContent, isError, every content kind', async () => {
      await officialChecks.expectToolCalls(peer);
    });

    it('streams progress for a tool call before its result', async () => {
      await officialChecks.expectToolProgress(peer, { steps: 3 });
    });

    if (!stateless) {
      it('cancels a tool call: the handler’s signal fires with the client’s reason', async () => {
        await officialChecks.expectCancelReachesHandler(peer);
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
      await officialChecks.expectResourcesAndTemplates(peer);
    });

    it('lists and gets prompts, completing an argument', async () => {
      await officialChecks.expectPrompts(peer);
    });

    it('answers -32042 with the required URL elicitations', async () => {
      await officialChecks.expectUrlElicitationRequired(peer);
    });

    if (!stateless) {
      it('subscribes, receives resources/updated, and stops after unsubscribing', async () => {
        await officialChecks.expectSubscriptionStops(peer);
      });

      it('filters log messages by logging/setLevel', async () => {
        await officialChecks.expectLogLevelFiltering(peer);
      });

      it('pings the client and answers sampling, including tools, tool_use and tool_result', async () => {
        expect(sdkText(await call('ping-client'))).toBe('pong');
        await officialChecks.expectSampling(peer);
      });

      it('receives the client’s progress for a sampling request, and cancels one', async () => {
        await officialChecks.expectSamplingProgress(peer);
        await officialChecks.expectSamplingCancelled(peer);
      });

      it('elicits a form and a URL, and sends notifications/elicitation/complete', async () => {
        await officialChecks.expectFormElicitation(peer);
        await officialChecks.expectUrlElicitation(peer);
      });

      it('lists the client’s roots and hears roots/list_changed', async () => {
        await officialChecks.expectRootsListChanged(peer);
      });

      it('announces tools, prompts and resources list_changed on the GET stream', async () => {
        await officialChecks.expectListChanged(peer);
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
        // "At once" without a clock: a request left waiting would end in the SDK's 60 s timeout
        // (a thrown error, past this test's own timeout), not in an error result naming the reason.
        for (const [tool, reason] of Object.entries(refusals)) {
          const result = await call(tool);
          expect(result.isError, tool).toBe(true);
          expect(sdkText(result), tool).toMatch(reason);
        }
        expect(probe.sampling).toEqual([]);
        expect(probe.urlElicitations).toEqual([]);
        expect(probe.rootsAsked).toBe(0);
        expect(serverErrors.length).toBeGreaterThan(0); // each refusal is also reported server-side
      });
    }

    it('every message matched the official schema', () => {
      recorder.assertChecked(stateless ? 30 : 60);
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
      client = await sdkChecks.connectToSdkFixture(probe, recorder, transport);
    });

    afterAll(async () => {
      await client?.close();
      await sdk?.close();
    });

    it('initializes on 2025-11-25 and pings', async () => {
      sdkChecks.expectSdkFixtureInfo(client);
      if (stateless) expect(transport.sessionId).toBeUndefined();
      else expect(transport.sessionId).toMatch(UUID);
      if (transport instanceof HttpClientTransport) expect(transport.kind).toBe('streamable-http');
      await client.ping();
    });

    it('lists tools and calls them: structuredContent checked against outputSchema, isError, images', async () => {
      await sdkChecks.expectSdkToolCalls(client);
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
        expect(updates).toEqual(countProgress(3));
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
        expect(await probe.cancellation('the server log')).toContain('user pressed stop');
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
      await sdkChecks.expectSdkResources(client, TINY_PNG);
    });

    it('lists and gets prompts, completing an argument', async () => {
      await sdkChecks.expectSdkPrompts(client);
    });

    it('surfaces -32042 as UrlElicitationRequiredError', async () => {
      await sdkChecks.expectSdkUrlElicitationRequired(client);
    });

    if (!stateless) {
      it('subscribes, receives resources/updated on the GET stream, and stops after unsubscribing', async () => {
        await sdkChecks.expectSdkSubscriptionStops(client, probe, () => tick(50));
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
        await sdkChecks.expectSdkRootsChanged(client, probe);
      });

      it('refreshes its caches on tools, prompts and resources list_changed', async () => {
        await sdkChecks.expectSdkListChanged(client, probe);
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
      recorder.assertChecked(stateless ? 25 : 50);
      recorder.assertClean();
    });
  },
);

// -------------------------------------------------------------------------------------------------
// 3. mcpkit McpClient → server-everything over Streamable HTTP

describe('mcpkit McpClient → server-everything over Streamable HTTP', () => {
  const recorder = new SchemaRecorder({ side: 'client' });
  const observed = new EverythingObserver();
  let everything: EverythingHttpServer;
  let transport: StreamableHttpClientTransport;
  let client: McpClient;
  let tools: Tool[] = [];

  beforeAll(async () => {
    everything = await startEverythingHttp();
    client = everythingClient(observed);
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
    expect(client.serverInfo?.name).toBe('mcp-servers/everything');
    expect(transport.sessionId).toMatch(UUID);
    everythingChecks.expectEverythingCapabilities(client);
    await expect(client.ping()).resolves.toBeUndefined();
  });

  everythingChecks.itRunsTheSharedChecks(() => ({ client, observed, tools }), ' (sent on the GET stream)');

  it('calls every listed tool with arguments drawn from its inputSchema', async () => {
    const called = await everythingChecks.callEveryTool(client, observed, tools);
    // Stop the simulated logging again, so it does not run on for the rest of the session.
    if (called.includes('toggle-simulated-logging')) await client.callTool('toggle-simulated-logging');
  });

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
    await everythingChecks.expectUrlElicitationRetry(client);
  });

  it('subscribes to a resource, receives resources/updated on the GET stream, and unsubscribes', async () => {
    await everythingChecks.expectResourceUpdates(client, observed);
    await client.callTool('toggle-subscriber-updates');
  });

  it('gets every prompt, filling required arguments through completion/complete', async () => {
    await everythingChecks.getEveryPrompt(client);
    await everythingChecks.expectCompletionByContext(client);
  });

  it('refuses a task-required tool called without a task', async () => {
    await everythingChecks.expectTaskRequiredRefusal(client);
  });

  it('runs the task tool: input_required elicitation, tasks/get, tasks/list, tasks/result, tasks/cancel, callToolAndWait', async () => {
    let waited: Promise<CallToolResult> | undefined;
    // A second run in parallel, driven by the convenience helper: the research takes seconds.
    await everythingChecks.runResearchTask(client, observed, () => {
      waited = callToolAndWait(client, 'simulate-research-query', { topic: 'compilers' });
    });
    expect(texts(await waited!)).toContain('compilers');
  }, 20_000);

  it('every message either way matched the official 2025-11-25 schema', () => {
    recorder.assertChecked(50);
    recorder.assertClean();
  });
});
