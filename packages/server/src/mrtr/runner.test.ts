import { LocalError, McpError } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { call, converse, counted, ELICIT, runner, SAMPLE } from './fixtures/rounds.js';
import type { InputRounds } from './runner.js';
import { type InputRequiredResult, InputRequiredSignal } from './signal.js';

describe('InputRoundRunner: rounds', () => {
  it('returns the result of a handler that asks nothing, without a state', async () => {
    const handler = counted(() => ({ content: [] }));
    await expect(runner().run(call(), handler)).resolves.toEqual({ content: [] });
    expect(handler.runs).toBe(1);
  });

  it('start answers a synchronous handler that asks nothing synchronously, and anything else as a promise', async () => {
    const sync = runner().start(call(), () => ({ content: [] }));
    expect(sync).toEqual({ content: [] });
    expect(sync).not.toBeInstanceOf(Promise);
    const asking = runner().start(call(), ({ recorder }) => {
      void recorder.ask('roots/list', {}).catch(() => undefined);
      return { content: [] };
    });
    expect(asking).toBeInstanceOf(Promise);
    await expect(asking).resolves.toMatchObject({ resultType: 'input_required' });
    const own = runner().start(call(), () => ({ resultType: 'input_required', requestState: 'mine' }));
    expect(own).toBeInstanceOf(Promise);
    expect(await own).toMatchObject({ resultType: 'input_required' });
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
});
