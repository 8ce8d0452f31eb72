import { CapabilityError, LocalError } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { rejection } from '../../../../tests/support/promises.js';
import { fromBase64Url, toBase64Url } from './digest.js';
import { call, counted, ELICIT, invalidParams, runner, SAMPLE } from './fixtures/rounds.js';
import { InputRoundRunner, type InputRounds } from './runner.js';
import { RequestStateSealer } from './sealedState.js';
import type { InputRequiredResult } from './signal.js';

describe('InputRoundRunner: rejections and limits', () => {
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

  it('refuses a question of a kind the client did not declare, naming the revision', async () => {
    const noSampling = { ...call(), clientCapabilities: { elicitation: {} } };
    const error = await rejection(
      runner().run(noSampling, async ({ recorder }) => recorder.ask('sampling/createMessage', SAMPLE)),
      CapabilityError,
    );
    expect(error.message).toBe(
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

  it("refuses a handler's own input request of a kind the client did not declare", async () => {
    const noElicitation = { ...call(), clientCapabilities: { roots: {} } };
    await expect(
      runner().run(noElicitation, () => ({
        resultType: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: ELICIT } },
      })),
    ).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
      message:
        'Input request "confirm" (elicitation/create) needs the client capability elicitation, which this request did not declare',
    });
  });

  it('refuses more questions in one round than maxInputRequests', async () => {
    const error = await rejection(
      runner({ maxInputRequests: 2 }).run(call(), async ({ recorder }) =>
        Promise.all([1, 2, 3].map(() => recorder.ask('roots/list', {}))),
      ),
      LocalError,
    );
    expect(error.message).toBe(
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
