/**
 * Input-required rounds (2026-07-28, MRTR) end to end: raw 2026 requests written by hand over
 * HTTP and to a stdio child process, answered by handlers that only know ctx.elicit/sample/listRoots.
 * The same handlers under a 2025-11-25 client still send real requests.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import type { AuthInfo } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf, fromBase64Url, toBase64Url } from '../packages/server/src/mrtr/digest.js';
import { RequestStateSealer } from '../packages/server/src/mrtr/sealedState.js';
import { createMrtrServer, MRTR_TEST_KEY } from './fixtures/mrtrServer.js';
import { type Json, modernRequest, postModern } from './support/modernWire.js';

/** Sends one 2026 request and resolves with its JSON-RPC response. */
type Send = (message: Json) => Promise<Json>;

const CAPS = {
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {} },
};

let nextId = 1;
function call(name: string, args: Json = {}, retry: Json = {}): Json {
  return modernRequest(nextId++, 'tools/call', { name, arguments: args, ...retry }, CAPS);
}

/** What the client (the test) answers to each kind of question. */
function answer(request: Json): Json {
  if (request.method === 'sampling/createMessage') {
    return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
  }
  if (request.method === 'roots/list')
    return { roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b' }] };
  const properties = Object.keys(request.params.requestedSchema.properties);
  return { action: 'accept', content: properties.includes('city') ? { city: 'Paris' } : { name: 'Ada' } };
}

/** Plays the client: answers every round and retries the original request with a new id. */
async function converse(send: Send, first: Json): Promise<{ final: Json; rounds: Json[] }> {
  const rounds: Json[] = [];
  let response = await send(first);
  while (response.result?.resultType === 'input_required') {
    const { inputRequests = {}, requestState } = response.result;
    rounds.push(response.result);
    const inputResponses = Object.fromEntries(
      Object.entries(inputRequests).map(([k, r]) => [k, answer(r as Json)]),
    );
    const params = { ...first.params, inputResponses, requestState };
    response = await send({ ...first, id: nextId++, params });
  }
  return { final: response, rounds };
}

async function runs(send: Send): Promise<Record<string, number>> {
  const response = await send(call('runs'));
  return JSON.parse(response.result.content[0].text);
}

function flipOneByte(state: string): string {
  const bytes = fromBase64Url(state)!;
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
  return toBase64Url(bytes);
}

/** The scenarios, run once over HTTP and once over stdio. */
function scenarios(transport: () => Send) {
  it('two sequential elicitations take two rounds, then the tool completes', async () => {
    const send = transport();
    const { final, rounds } = await converse(send, call('two-questions', { greeting: 'Hi' }));
    expect(rounds).toHaveLength(2);
    expect(Object.keys(rounds[0]!.inputRequests)).toEqual(['0']);
    expect(rounds[0]!.inputRequests['0']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Your name?' },
    });
    expect(rounds[1]!.inputRequests['1'].params.message).toBe('Where do you live, Ada?');
    expect(typeof rounds[0]!.requestState).toBe('string');
    expect(rounds[1]!.requestState).not.toBe(rounds[0]!.requestState);
    expect(final.result.resultType).toBe('complete');
    expect(final.result.content).toEqual([{ type: 'text', text: 'Hi Ada from Paris' }]);
  });

  it('Promise.all over elicit and sample sends one round with two input requests', async () => {
    const send = transport();
    const { final, rounds } = await converse(send, call('together'));
    expect(rounds).toHaveLength(1);
    expect(Object.entries(rounds[0]!.inputRequests).map(([key, r]) => [key, (r as Json).method])).toEqual([
      ['0', 'elicitation/create'],
      ['1', 'sampling/createMessage'],
    ]);
    expect(final.result.content[0].text).toBe('Ada: Paris');
  });

  it('asks for roots, and asks from a prompt too', async () => {
    const send = transport();
    const roots = await converse(send, call('roots'));
    expect(roots.rounds[0]!.inputRequests).toEqual({ '0': { method: 'roots/list', params: {} } });
    expect(roots.final.result.content[0].text).toBe('file:///work/a file:///work/b');
    const prompt = await converse(send, modernRequest(nextId++, 'prompts/get', { name: 'greet' }, CAPS));
    expect(prompt.rounds).toHaveLength(1);
    expect(prompt.final.result.messages[0].content.text).toBe('Say hello to Ada');
  });

  it('rejects a requestState with one byte changed with -32602, and runs nothing of the handler', async () => {
    const send = transport();
    const first = await send(call('roots'));
    const before = await runs(send);
    const retry = call('roots', {}, { inputResponses: { '0': answer({ method: 'roots/list' }) } });
    retry.params.requestState = flipOneByte(first.result.requestState);
    const rejected = await send(retry);
    expect(rejected.error.code).toBe(-32602);
    expect(rejected.error.message).toBe('requestState was not issued by this server or has been altered');
    expect(await runs(send)).toEqual(before);
  });

  it("rejects the state of one tool's call presented on another tool's call", async () => {
    const send = transport();
    const first = await send(call('roots'));
    const before = await runs(send);
    const rejected = await send(
      call('together', {}, { inputResponses: {}, requestState: first.result.requestState }),
    );
    expect(rejected.error).toMatchObject({
      code: -32602,
      message: 'requestState belongs to a request with other parameters',
    });
    expect(await runs(send)).toEqual(before);
  });

  it('rejects an expired requestState', async () => {
    const send = transport();
    // Sealed with the server's own key eleven minutes ago: authentic, bound to this call, expired.
    const requestState = await rootsState(Date.now() - 11 * 60 * 1000);
    const retry = (state: string) =>
      call('roots', {}, { inputResponses: { '0': { roots: [] } }, requestState: state });
    const before = await runs(send);
    const rejected = await send(retry(requestState));
    expect(rejected.error.code).toBe(-32602);
    expect(rejected.error.message).toMatch(/^requestState has expired/);
    expect(await runs(send)).toEqual(before);
    // The same state sealed now is accepted: only its age was wrong.
    const accepted = await send(retry(await rootsState(Date.now())));
    expect(accepted.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: '' }] });
  });
}

/** The state the server issues for `roots` after asking for the roots, as if sealed at `issuedAt`. */
async function rootsState(issuedAt: number): Promise<string> {
  const question = await digestOf({ method: 'roots/list', params: {} });
  return new RequestStateSealer([MRTR_TEST_KEY], {}, () => issuedAt).seal({
    method: 'tools/call',
    paramsDigest: await digestOf({ name: 'roots', arguments: {} }),
    principal: undefined,
    rounds: 1,
    answers: new Map(),
    asked: new Map([['0', { method: 'roots/list', digest: question }]]),
  });
}

describe('input-required rounds over HTTP', () => {
  let http: ServedHandler;
  const reported: Error[] = [];
  const server = createMrtrServer({ onError: (error) => reported.push(error) });
  beforeAll(async () => {
    http = await serve(createStreamableHttpHandler(server), { path: '/mcp', host: '127.0.0.1', port: 0 });
  });
  afterAll(() => http.close());
  const send: Send = async (message) => {
    const { body } = await postModern(http.url, message);
    if (!body) throw new Error('no JSON-RPC response in the HTTP answer');
    return body;
  };

  scenarios(() => send);

  it('reported nothing to onError: a pending question is no error', () => {
    expect(reported).toEqual([]);
  });

  it('serves the same handlers to a 2025-11-25 client with real elicitation and sampling requests', async () => {
    const asked: string[] = [];
    const client = new McpClient(
      { name: 'legacy', version: '1.0.0' },
      {
        // An explicit initialize list pins the 2025 era (no 2026 probe), whatever the client's default.
        protocolVersions: ['2025-11-25'],
        elicitation: {
          form: (params) => {
            asked.push(`elicit: ${params.message}`);
            return { action: 'accept', content: { name: 'Grace' } };
          },
        },
        sampling: (params) => {
          asked.push(`sample: ${params.maxTokens}`);
          return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' };
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(new URL(http.url)));
    try {
      expect(client.protocolVersion).toBe('2025-11-25');
      const before = await runs(send);
      // A 2026 conversation with the same tool runs beside the 2025 session.
      const [legacy, modern] = await Promise.all([
        client.callTool('together', {}),
        converse(send, call('together')),
      ]);
      expect(legacy.content).toEqual([{ type: 'text', text: 'Grace: Paris' }]);
      expect(legacy).not.toHaveProperty('resultType');
      expect(modern.final.result.content[0].text).toBe('Ada: Paris');
      expect(asked.sort()).toEqual(['elicit: Your name?', 'sample: 20']);
      // The 2025 call ran the handler once; the 2026 conversation twice (one round, one retry).
      expect((await runs(send)).together).toBe((before.together ?? 0) + 3);
    } finally {
      await client.close();
    }
  });
});

describe('input-required rounds with the official SDK v2 client', () => {
  let http: ServedHandler;
  beforeAll(async () => {
    http = await serve(createStreamableHttpHandler(createMrtrServer()), { path: '/mcp' });
  });
  afterAll(() => http.close());

  const runSdkV2 = (era: string): Promise<Json> =>
    new Promise((resolve, reject) => {
      const script = new URL('./fixtures/sdkV2MrtrClient.mjs', import.meta.url).pathname;
      execFile(process.execPath, [script, http.url, era], { timeout: 20_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
      });
    });

  it.each(['2026-07-28', 'legacy'])(
    'gets the same answers in era %s, through the same client handlers',
    async (era) => {
      const out = await runSdkV2(era);
      expect(out.era).toBe(era === 'legacy' ? 'legacy' : 'modern');
      expect(out).toMatchObject({
        twoQuestions: 'Hi Grace from Lyon',
        together: 'Grace: Paris',
        roots: 'file:///sdk/root',
        prompt: 'Say hello to Grace',
      });
      // Each question reached the client's handler once, in either era.
      expect([...out.asked].sort()).toEqual(
        [
          'elicit: Your name?',
          'elicit: Where do you live, Grace?',
          'elicit: Your name?',
          'sample',
          'roots',
          'elicit: Your name?',
        ].sort(),
      );
    },
  );
});

describe('input-required rounds and authorization', () => {
  it('binds the state to the principal: the same state under another token is -32602', async () => {
    // The documented seam for hosts that verify tokens themselves: handle(request, { authInfo }).
    const tokens: Record<string, AuthInfo> = {
      'Bearer alice': { clientId: 'app', extra: { sub: 'alice' } },
      'Bearer bob': { clientId: 'app', extra: { sub: 'bob' } },
    };
    const handler = createStreamableHttpHandler(createMrtrServer());
    const http = await serve(
      (request: Request) =>
        handler.handle(request, { authInfo: tokens[request.headers.get('authorization') ?? ''] }),
      { path: '/mcp' },
    );
    try {
      const as =
        (who: string): Send =>
        async (message) =>
          (await postModern(http.url, message, { authorization: `Bearer ${who}` })).body!;
      const first = await as('alice')(call('roots'));
      const retry = () =>
        call(
          'roots',
          {},
          { inputResponses: { '0': { roots: [] } }, requestState: first.result.requestState },
        );
      const stolen = await as('bob')(retry());
      expect(stolen.error).toMatchObject({
        code: -32602,
        message: 'requestState was issued to another principal',
      });
      const own = await as('alice')(retry());
      expect(own.result.resultType).toBe('complete');
    } finally {
      await http.close();
      await handler.close?.();
    }
  });
});

describe('input-required rounds over stdio (a child process)', () => {
  let child: ChildProcessWithoutNullStreams;
  let stderr = '';
  const waiting = new Map<unknown, (response: Json) => void>();
  beforeAll(() => {
    child = spawn(process.execPath, [
      '--import',
      './conformance/register-ts.mjs',
      'tests/fixtures/mrtr-server.ts',
    ]);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    child.kill();
    await exited;
  });
  const send: Send = (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });

  scenarios(() => send);

  it('reported nothing on stderr (where onError writes by default)', () => {
    expect(stderr).toBe('');
  });
});
