import { CapabilityError, LocalError, McpError } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './digest.js';
import { type InputRoundCall, InputRoundRunner, type InputRounds } from './runner.js';
import { RequestStateSealer } from './sealedState.js';
import { type InputRequest, type InputRequiredResult, InputRequiredSignal } from './signal.js';

const KEY = 'k'.repeat(32);
const CAPS = { elicitation: { form: {} }, sampling: {}, roots: {} };
const ELICIT = {
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
};
const SAMPLE = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
  maxTokens: 50,
};

type Handler = (rounds: InputRounds) => unknown;

/** A call as the 2026 path decodes it: the retry fields lifted out of the params, as on the wire. */
function call(
  params: Record<string, unknown> = { name: 'greet', arguments: { lang: 'en' } },
): InputRoundCall {
  const { inputResponses, requestState, ...rest } = params;
  return {
    method: 'tools/call',
    params: rest,
    inputResponses,
    requestState,
    principal: 'client:alice',
    clientCapabilities: CAPS,
    revision: '2026-07-28',
  };
}

/** A handler that counts its runs, so tests can tell "rejected before the handler ran". */
function counted(handler: Handler): Handler & { runs: number } {
  const wrapped = ((rounds: InputRounds) => {
    wrapped.runs++;
    return handler(rounds);
  }) as Handler & { runs: number };
  wrapped.runs = 0;
  return wrapped;
}

function answerFor(request: InputRequest): unknown {
  switch (request.method) {
    case 'elicitation/create':
      return { action: 'accept', content: { name: `answer to ${String(request.params.message)}` } };
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
    default:
      return { roots: [{ uri: 'file:///work', name: 'work' }] };
  }
}

/** Plays the client: answers every input request and retries with the state, until a final result. */
async function converse(runner: InputRoundRunner, first: InputRoundCall, handler: Handler) {
  const rounds: InputRequiredResult[] = [];
  let current = first;
  for (;;) {
    const result = await runner.run(current, handler);
    if (!(result as InputRequiredResult).resultType) return { result, rounds };
    const asked = result as InputRequiredResult;
    rounds.push(asked);
    const inputResponses = Object.fromEntries(
      Object.entries(asked.inputRequests ?? {}).map(([key, request]) => [key, answerFor(request)]),
    );
    current = { ...first, inputResponses, requestState: asked.requestState };
  }
}

async function invalidParams(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(-32602);
  return (error as McpError).message;
}

function runner(limits?: ConstructorParameters<typeof RequestStateSealer>[1]) {
  return new InputRoundRunner(new RequestStateSealer([KEY], limits));
}

describe('InputRoundRunner', () => {
  it('returns the result of a handler that asks nothing, without a state', async () => {
    const handler = counted(() => ({ content: [] }));
    await expect(runner().run(call(), handler)).resolves.toEqual({ content: [] });
    expect(handler.runs).toBe(1);
  });

  it('runs two sequential elicitations as two rounds, then completes', async () => {
    const handler = counted(async ({ recorder }) => {
      const first = await recorder.ask<{ content: { name: string } }>('elicitation/create', ELICIT);
      const second = await recorder.ask<{ content: { name: string } }>('elicitation/create', {
        ...ELICIT,
        message: `Hello ${first.content.name}, your city?`,
      });
      return { content: [{ type: 'text', text: second.content.name }] };
    });
    const { result, rounds } = await converse(runner(), call(), handler);
    expect(rounds.map((round) => Object.keys(round.inputRequests!))).toEqual([['0'], ['1']]);
    expect(rounds[0]!.inputRequests!['0']).toEqual({ method: 'elicitation/create', params: ELICIT });
    expect(rounds[1]!.inputRequests!['1']!.params.message).toBe('Hello answer to Your name?, your city?');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'answer to Hello answer to Your name?, your city?' }],
    });
    expect(handler.runs).toBe(3);
  });

  it('sends questions issued together (Promise.all over elicit and sample) in one round', async () => {
    const handler = counted(async ({ recorder }) => {
      const [who, capital] = await Promise.all([
        recorder.ask<{ action: string }>('elicitation/create', ELICIT),
        recorder.ask<{ content: { text: string } }>('sampling/createMessage', SAMPLE),
      ]);
      return { content: [{ type: 'text', text: `${who.action} ${capital.content.text}` }] };
    });
    const { result, rounds } = await converse(runner(), call(), handler);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]!.inputRequests).toEqual({
      '0': { method: 'elicitation/create', params: ELICIT },
      '1': { method: 'sampling/createMessage', params: SAMPLE },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'accept Paris' }] });
    expect(handler.runs).toBe(2);
  });

  it("keys questions by the handler's inputKey when it gives one", async () => {
    const handler = counted(async ({ recorder }) => {
      const [who, roots] = await Promise.all([
        recorder.ask<{ content: { name: string } }>('elicitation/create', ELICIT, 'user_name'),
        recorder.ask<{ roots: unknown[] }>('roots/list', {}),
      ]);
      return `${who.content.name} ${roots.roots.length}`;
    });
    const { result, rounds } = await converse(runner(), call(), handler);
    expect(rounds[0]!.inputRequests).toEqual({
      user_name: { method: 'elicitation/create', params: ELICIT },
      '1': { method: 'roots/list', params: {} },
    });
    expect(result).toBe('answer to Your name? 1');
  });

  it('refuses an inputKey used twice in one request', async () => {
    const error = await runner()
      .run(call(), async ({ recorder }) => {
        await Promise.all([
          recorder.ask('roots/list', {}, 'same'),
          recorder.ask('elicitation/create', ELICIT, 'same'),
        ]);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(LocalError);
    expect((error as Error).message).toBe('inputKey "same" must be a non-empty string used once per request');
  });

  it('asks for roots, and tells the handler which round it is in', async () => {
    const seen: number[] = [];
    const { result } = await converse(runner(), call(), async ({ recorder, round }) => {
      seen.push(round);
      const { roots } = await recorder.ask<{ roots: Array<{ uri: string }> }>('roots/list', {});
      return roots.map((root) => root.uri);
    });
    expect(result).toEqual(['file:///work']);
    expect(seen).toEqual([0, 1]);
  });

  it('asks again when the question at a position changed since it was answered', async () => {
    let message = 'first question';
    const r = runner();
    const handler = counted(async ({ recorder }) =>
      recorder.ask('elicitation/create', { ...ELICIT, message }),
    );
    const asked = (await r.run(call(), handler)) as InputRequiredResult;
    message = 'a different question';
    const retry = call({
      ...call().params,
      inputResponses: { '0': { action: 'accept', content: { name: 'x' } } },
      requestState: asked.requestState,
    });
    const again = (await r.run(retry, handler)) as InputRequiredResult;
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests!['0']!.params.message).toBe('a different question');
  });

  it('asks again for a question the retry did not answer, and ignores answers nobody asked for', async () => {
    const r = runner();
    const handler = counted(async ({ recorder }) => recorder.ask('roots/list', {}));
    const asked = (await r.run(call(), handler)) as InputRequiredResult;
    const retry = call({
      ...call().params,
      inputResponses: { '7': { roots: [] }, unrelated: 'ignored' },
      requestState: asked.requestState,
    });
    const again = (await r.run(retry, handler)) as InputRequiredResult;
    expect(Object.keys(again.inputRequests!)).toEqual(['0']);
    expect(handler.runs).toBe(2);
  });

  it('carries answers across rounds in the state: a retry need not repeat earlier answers', async () => {
    const r = runner();
    const handler = async ({ recorder }: InputRounds) => {
      await recorder.ask('roots/list', {});
      await recorder.ask('elicitation/create', ELICIT);
      return 'done';
    };
    const first = (await r.run(call(), handler)) as InputRequiredResult;
    const second = (await r.run(
      call({ ...call().params, inputResponses: { '0': { roots: [] } }, requestState: first.requestState }),
      handler,
    )) as InputRequiredResult;
    const third = await r.run(
      call({
        ...call().params,
        inputResponses: { '1': { action: 'decline' } },
        requestState: second.requestState,
      }),
      handler,
    );
    expect(third).toBe('done');
  });

  it('rejects answers of the wrong shape with -32602 before the handler runs', async () => {
    const r = runner();
    const handler = counted(async ({ recorder }) => {
      await Promise.all([
        recorder.ask('elicitation/create', ELICIT),
        recorder.ask('sampling/createMessage', SAMPLE),
      ]);
      return 'done';
    });
    const asked = (await r.run(call(), handler)) as InputRequiredResult;
    const retry = (inputResponses: unknown) =>
      r.run(call({ ...call().params, inputResponses, requestState: asked.requestState }), handler);
    expect(await invalidParams(retry({ '0': { action: 'maybe' } }))).toBe(
      'inputResponses["0"] is not a elicitation/create result: "action" must be accept, decline or cancel',
    );
    expect(
      await invalidParams(retry({ '1': { role: 'assistant', content: { type: 'text', text: 'x' } } })),
    ).toMatch(/"model" must be a string/);
    expect(await invalidParams(retry(['not', 'a', 'map']))).toMatch(/inputResponses must be an object/);
    // Not an object is refused even on a first call, without a state.
    expect(await invalidParams(r.run(call({ ...call().params, inputResponses: null }), handler))).toMatch(
      /inputResponses must be an object/,
    );
    expect(handler.runs).toBe(1);
  });

  it('rejects a tampered, foreign or misapplied state with -32602 and never runs the handler', async () => {
    const r = runner();
    const handler = counted(async ({ recorder }) => recorder.ask('roots/list', {}));
    const { requestState } = (await r.run(call(), handler)) as InputRequiredResult;
    const bytes = fromBase64Url(requestState!)!;
    bytes[bytes.length - 3]! ^= 0x80;
    const tampered = toBase64Url(bytes);
    const answers = { '0': { roots: [] } };
    const base = call().params!;
    expect(
      await invalidParams(r.run(call({ ...base, inputResponses: answers, requestState: tampered }), handler)),
    ).toMatch(/altered/);
    const otherTool = { name: 'delete-everything', arguments: { lang: 'en' } };
    expect(
      await invalidParams(r.run(call({ ...otherTool, inputResponses: answers, requestState }), handler)),
    ).toMatch(/other parameters/);
    const otherArgs = { name: 'greet', arguments: { lang: 'fr' } };
    expect(await invalidParams(r.run(call({ ...otherArgs, requestState }), handler))).toMatch(
      /other parameters/,
    );
    const mallory = { ...call({ ...base, requestState }), principal: 'client:mallory' };
    expect(await invalidParams(r.run(mallory, handler))).toMatch(/another principal/);
    const prompt = { ...call({ ...base, requestState }), method: 'prompts/get' };
    expect(await invalidParams(r.run(prompt, handler))).toMatch(/belongs to a "tools\/call" request/);
    const foreign = new InputRoundRunner(new RequestStateSealer(['z'.repeat(32)]));
    expect(await invalidParams(foreign.run(call({ ...base, requestState }), handler))).toMatch(
      /does not hold/,
    );
    expect(handler.runs).toBe(1);
  });

  it('ignores _meta changes between rounds (a new envelope on every retry)', async () => {
    const r = runner();
    const handler = async ({ recorder }: InputRounds) => recorder.ask('roots/list', {});
    const first = (await r.run(
      call({ ...call().params, _meta: { progressToken: 1 } }),
      handler,
    )) as InputRequiredResult;
    const done = await r.run(
      call({
        ...call().params,
        _meta: { progressToken: 2 },
        inputResponses: { '0': { roots: [] } },
        requestState: first.requestState,
      }),
      handler,
    );
    expect(done).toEqual({ roots: [] });
  });

  it('refuses a question of a kind the client did not declare, naming the revision', async () => {
    const noSampling = { ...call(), clientCapabilities: { elicitation: {} } };
    const error = await runner()
      .run(noSampling, async ({ recorder }) => recorder.ask('sampling/createMessage', SAMPLE))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as Error).message).toBe(
      'The client did not declare the "sampling" capability, so "sampling/createMessage" cannot be sent to it (revision 2026-07-28: questions go out in an input-required result)',
    );
  });

  it('lets a handler fall back when a kind is not declared', async () => {
    const noRoots = { ...call(), clientCapabilities: {} };
    const result = await runner().run(noRoots, async ({ recorder }) =>
      recorder
        .ask('roots/list', {})
        .catch((e: unknown) => (e instanceof CapabilityError ? 'no roots' : Promise.reject(e))),
    );
    expect(result).toBe('no roots');
  });

  it('refuses questions in requests that cannot carry input-required results', async () => {
    const completion = { ...call(), method: 'completion/complete' };
    await expect(runner().run(completion, ({ recorder }) => recorder.ask('roots/list', {}))).rejects.toThrow(
      'Under revision 2026-07-28 a server can ask the client for input only while answering tools/call, prompts/get or resources/read, not "completion/complete"',
    );
  });

  it('asks even when the handler swallows the signal and returns something else', async () => {
    const result = await runner().run(call(), async ({ recorder }) => {
      try {
        await recorder.ask('roots/list', {});
      } catch (error) {
        expect(error).toBeInstanceOf(InputRequiredSignal);
        expect(error).toBeInstanceOf(LocalError);
        return { content: [{ type: 'text', text: 'failed' }], isError: true };
      }
      return 'unreachable';
    });
    expect((result as InputRequiredResult).resultType).toBe('input_required');
  });

  it('rethrows what a handler throws when it asked nothing open', async () => {
    await expect(
      runner().run(call(), () => {
        throw new McpError(-32602, 'bad arguments');
      }),
    ).rejects.toThrow('bad arguments');
  });

  it("passes a handler's own input-required result, sealing its state and returning it on retry", async () => {
    const r = runner();
    const seen: Array<[string | undefined, unknown]> = [];
    const handler = ({ requestState, inputResponses }: InputRounds) => {
      seen.push([requestState, inputResponses?.confirm]);
      if (!inputResponses?.confirm) {
        return {
          resultType: 'input_required',
          inputRequests: { confirm: { method: 'elicitation/create', params: ELICIT } },
          requestState: 'deploy-123',
        };
      }
      return 'deployed';
    };
    const { result, rounds } = await converse(r, call(), handler);
    expect(result).toBe('deployed');
    expect(rounds[0]!.requestState).not.toBe('deploy-123');
    expect(rounds[0]!.inputRequests).toEqual({ confirm: { method: 'elicitation/create', params: ELICIT } });
    expect(seen[0]).toEqual([undefined, undefined]);
    expect(seen[1]![0]).toBe('deploy-123');
    expect(seen[1]![1]).toMatchObject({ action: 'accept' });
  });

  it("refuses a handler's own input request of a kind the client did not declare", async () => {
    const noElicitation = { ...call(), clientCapabilities: { roots: {} } };
    await expect(
      runner().run(noElicitation, () => ({
        resultType: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: ELICIT } },
      })),
    ).rejects.toBeInstanceOf(CapabilityError);
  });

  it('refuses more questions in one round than maxInputRequests', async () => {
    const error = await runner({ maxInputRequests: 2 })
      .run(call(), async ({ recorder }) => Promise.all([1, 2, 3].map(() => recorder.ask('roots/list', {}))))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(LocalError);
    expect((error as Error).message).toBe(
      '"tools/call" asked 3 questions in one round; the limit is 2 (requestStateLimits.maxInputRequests)',
    );
  });

  it('ends a request that still asks after maxRounds rounds with -32602', async () => {
    const r = runner({ maxRounds: 2 });
    let n = 0;
    // Asks something new every run, so it never completes.
    const handler = async ({ recorder }: InputRounds) =>
      recorder.ask('elicitation/create', { ...ELICIT, message: `q${n++}` });
    const first = (await r.run(call(), handler)) as InputRequiredResult;
    const second = (await r.run(
      call({ ...call().params, requestState: first.requestState }),
      handler,
    )) as InputRequiredResult;
    expect(second.resultType).toBe('input_required');
    const message = await invalidParams(
      r.run(call({ ...call().params, requestState: second.requestState }), handler),
    );
    expect(message).toBe('"tools/call" still needs input after 2 rounds, the most one request may take');
  });

  it('refuses to carry answers larger than maxStateBytes', async () => {
    const r = runner({ maxStateBytes: 1024 });
    const handler = async ({ recorder }: InputRounds) => {
      await recorder.ask('elicitation/create', ELICIT);
      await recorder.ask('roots/list', {});
      return 'done';
    };
    const first = (await r.run(call(), handler)) as InputRequiredResult;
    const huge = { action: 'accept', content: { name: 'x'.repeat(2000) } };
    const retry = call({ ...call().params, inputResponses: { '0': huge }, requestState: first.requestState });
    expect(await invalidParams(r.run(retry, handler))).toMatch(
      /exceed the request state limit of 1024 bytes/,
    );
  });
});
