/**
 * Seeded fuzzing of the wire (issue 10, "Must show"): random and mutated frames go to a real
 * server over stdio and over Streamable HTTP, and an oracle written here, independent of the
 * engine's envelope check, says what must happen to each frame:
 *
 * - a well-formed request is answered exactly once, under its id;
 * - anything with a `result` or an `error` and no `method` (a response) is never answered;
 * - a notification is never answered;
 * - anything else may get an error (never a result), at most once, under its id if it has one.
 *
 * Seeds come from tests/support/fastCheck.ts: a fixed one and a rotating one (`FC_SEED`), both
 * printed; a failure names its seed.
 */
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Server } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type Json, RawClient, readAnswer } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { propertySeeds, sampleWithSeed } from './support/fastCheck.js';
import { stdioPipes } from './support/stdioPipes.js';

const FRAMES_PER_SEED = 1_500;

// ------------------------------------------------------------------ frames

const methods = fc.oneof(
  fc.constantFrom('ping', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'logging/setLevel'),
  fc.constantFrom('initialize', 'completion/complete', 'notifications/progress', 'notifications/initialized'),
  fc.string({ maxLength: 12 }),
);
const params = fc.option(
  fc.oneof(
    { weight: 5, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  ),
  { nil: undefined },
);
const errorMember = fc.oneof(
  fc.constant(null),
  fc.record(
    { code: fc.oneof(fc.integer(), fc.double(), fc.string()), message: fc.oneof(fc.string(), fc.integer()) },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const mutation = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace', 'truncate', 'duplicate'),
  at: fc.nat(),
  char: fc.constantFrom(...'{}[]",:0-1.ae\\ '.split('')),
});

interface Mutation {
  kind: string;
  at: number;
  char: string;
}

type Template =
  | { kind: 'request'; method: string; params: unknown; numericId: boolean }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; jsonrpc: unknown; result: unknown; error: unknown; numericId: boolean }
  | { kind: 'json'; value: unknown };

const template: fc.Arbitrary<Template> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      method: methods,
      params,
      numericId: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('notification' as const), method: methods, params }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('response' as const),
      jsonrpc: fc.option(fc.constantFrom('2.0', '1.0'), { nil: undefined }),
      result: fc.option(
        fc.oneof(
          fc.constant(null),
          fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
        ),
        { nil: undefined },
      ),
      error: fc.option(errorMember, { nil: undefined }),
      numericId: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
  },
);
const frameSpec = fc.record({ template, mutate: fc.option(mutation, { freq: 2, nil: undefined }) });

function render(spec: { template: Template; mutate?: Mutation | undefined }, n: number): string {
  const t = spec.template;
  const id = 'numericId' in t && t.numericId ? 100_000 + n : `f${n}`;
  let value: unknown;
  if (t.kind === 'request') value = { jsonrpc: '2.0', id, method: t.method, params: t.params };
  else if (t.kind === 'notification') value = { jsonrpc: '2.0', method: t.method, params: t.params };
  else if (t.kind === 'response') value = { jsonrpc: t.jsonrpc, id, result: t.result, error: t.error };
  else value = t.value;
  const text = JSON.stringify(value);
  const m = spec.mutate;
  if (!m || text.length === 0) return text;
  const at = m.at % text.length;
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + 1);
    case 'insert':
      return text.slice(0, at) + m.char + text.slice(at);
    case 'replace':
      return text.slice(0, at) + m.char + text.slice(at + 1);
    case 'truncate':
      return text.slice(0, at);
    default:
      return text.slice(0, at) + text.slice(at, at + 5) + text.slice(at);
  }
}

// ------------------------------------------------------------------ the oracle

type Expectation = 'exactly-once' | 'never' | 'error-at-most-once';
interface Frame {
  readonly text: string;
  readonly expect: Expectation;
  /** JSON of the id answers for this frame carry, if it has a usable one. */
  readonly idKey: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

function judge(text: string): Frame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === '' ? undefined : { text, expect: 'error-at-most-once', idKey: undefined };
  }
  if (!isObject(value)) return { text, expect: 'error-at-most-once', idKey: undefined };
  // Cancellation legitimately suppresses an answer; the fuzzer does not send it.
  if (value.method === 'notifications/cancelled') return undefined;
  const idKey = isId(value.id) ? JSON.stringify(value.id) : undefined;
  if (!('method' in value) && ('result' in value || 'error' in value))
    return { text, expect: 'never', idKey };
  if (typeof value.method === 'string' && !('id' in value)) return { text, expect: 'never', idKey };
  const wellFormed =
    value.jsonrpc === '2.0' &&
    typeof value.method === 'string' &&
    idKey !== undefined &&
    (value.params === undefined || isObject(value.params));
  return { text, expect: wellFormed ? 'exactly-once' : 'error-at-most-once', idKey };
}

/** Frames for one seed, each id used by at most one frame so every answer can be attributed. */
function framesFor(seed: number): Frame[] {
  const seen = new Set<string>();
  const frames: Frame[] = [];
  sampleWithSeed(frameSpec, FRAMES_PER_SEED, seed).forEach((spec, n) => {
    const frame = judge(render(spec, n));
    if (!frame) return;
    if (frame.idKey !== undefined) {
      if (seen.has(frame.idKey)) return;
      seen.add(frame.idKey);
    }
    frames.push(frame);
  });
  return frames;
}

/** Checks every answer against the oracle; returns what went wrong, in words. */
function violations(frames: Frame[], answers: Json[]): string[] {
  const byId = new Map<string, Frame>();
  for (const frame of frames) if (frame.idKey !== undefined) byId.set(frame.idKey, frame);
  const counts = new Map<string, number>();
  const problems: string[] = [];
  for (const answer of answers) {
    if (!('id' in answer) || answer.id === null) {
      if (!answer.error || ![-32700, -32600].includes(answer.error.code))
        problems.push(`an id-less answer that is not a parse/invalid error: ${JSON.stringify(answer)}`);
      continue;
    }
    const key = JSON.stringify(answer.id);
    const frame = byId.get(key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!frame) problems.push(`an answer under an id no frame carried: ${JSON.stringify(answer)}`);
    else if (frame.expect === 'never') problems.push(`answered ${frame.text} with ${JSON.stringify(answer)}`);
    else if (frame.expect === 'error-at-most-once' && !answer.error)
      problems.push(`a result for the invalid ${frame.text}`);
  }
  for (const frame of frames) {
    const count = frame.idKey === undefined ? 0 : (counts.get(frame.idKey) ?? 0);
    if (frame.expect === 'exactly-once' && count !== 1) problems.push(`${count} answers to ${frame.text}`);
    if (frame.expect === 'error-at-most-once' && count > 1)
      problems.push(`${count} answers to ${frame.text}`);
  }
  return problems;
}

// ------------------------------------------------------------------ the server

function fuzzServer(): Server {
  const server = new Server(
    { name: 'fuzz', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} }, onError: () => {} },
  );
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (p) => ({
    content: [{ type: 'text', text: String(typeof p.name) }],
  }));
  return server;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
};

async function overStdio(frames: Frame[]): Promise<Json[]> {
  const pipes = stdioPipes();
  const session = fuzzServer().connect(pipes.transport);
  pipes.send(INITIALIZE);
  pipes.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (const frame of frames) pipes.send(frame.text);
  // A last ping, answered after everything before it: the server is still serving.
  pipes.send({ jsonrpc: '2.0', id: 'last', method: 'ping' });
  await pipes.waitFor((line) => line.id === 'last', 15_000);
  await new Promise((resolve) => setTimeout(resolve, 50)); // anything late would still be counted
  await session.close();
  expect(pipes.lines.filter((a) => a.id === 'last')).toEqual([{ jsonrpc: '2.0', id: 'last', result: {} }]);
  return pipes.lines.filter((a) => a.id !== 'init' && a.id !== 'last');
}

const served: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

async function overHttp(frames: Frame[]): Promise<Json[]> {
  const s = await serve(createStreamableHttpHandler(fuzzServer(), { enableJsonResponse: true }), {
    path: '/mcp',
  });
  served.push(s);
  const client = new RawClient(s.url);
  await client.connect();
  const answers: Json[] = [];
  const post = async (frame: Frame) => {
    const response = await client.post(frame.text);
    const body = await response.text();
    if (body === '') return;
    const type = response.headers.get('content-type') ?? '';
    const parsed = type.includes('event-stream')
      ? body
          .split('\n')
          .filter((l) => l.startsWith('data: ') && l.length > 6)
          .map((l) => JSON.parse(l.slice(6)))
      : [JSON.parse(body)];
    answers.push(...parsed.flat());
  };
  for (let index = 0; index < frames.length; index += 8)
    await Promise.all(frames.slice(index, index + 8).map(post));
  const last = await readAnswer(await client.post({ jsonrpc: '2.0', id: 'last', method: 'ping' }));
  expect(last.messages).toEqual([{ jsonrpc: '2.0', id: 'last', result: {} }]);
  return answers;
}

describe('seeded fuzzing of frames: every well-formed request is answered exactly once, nothing else is', () => {
  for (const { label, seed } of propertySeeds()) {
    it(`over stdio (${label} seed ${seed})`, async () => {
      const frames = framesFor(seed);
      expect(frames.filter((f) => f.expect === 'exactly-once').length).toBeGreaterThan(200);
      expect(frames.filter((f) => f.expect === 'never').length).toBeGreaterThan(100);
      expect(
        violations(frames, await overStdio(frames)),
        `seed ${seed}; replay with FC_SEED=${seed}`,
      ).toEqual([]);
    });

    it(`over Streamable HTTP (${label} seed ${seed})`, async () => {
      const frames = framesFor(seed);
      expect(violations(frames, await overHttp(frames)), `seed ${seed}; replay with FC_SEED=${seed}`).toEqual(
        [],
      );
    });
  }
});
