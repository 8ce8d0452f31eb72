import type { ClientRequestContext } from '@mcpkit/client';
import type { CreateMessageRequestParams } from '@mcpkit/core';
import { expect, it } from 'vitest';
import { ConsentMemory } from './consent.js';
import { chooseModel, samplingHandler } from './sampling.js';
import type { ModelCallback, SamplingPolicy } from './types.js';

// The handler reads only the signal of its context.
const request = { signal: new AbortController().signal } as ClientRequestContext;
const params: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 1000,
  includeContext: 'allServers',
  modelPreferences: { hints: [{ name: 'opus' }, { name: 'haiku' }] },
};

async function shaped(
  policy: SamplingPolicy,
): Promise<{ model: string; params: CreateMessageRequestParams }> {
  let seen: { model: string; params: CreateMessageRequestParams } | undefined;
  const model: ModelCallback = (call) => {
    seen = { model: call.model, params: call.params };
    return { role: 'assistant', model: call.model, content: { type: 'text', text: 'ok' } };
  };
  const handler = samplingHandler({
    server: 's',
    policy,
    models: ['claude-sonnet', 'claude-haiku'],
    model,
    hooks: { sampling: () => 'once' },
    consent: new ConsentMemory(undefined),
    audit: { emit: undefined, showArguments: false },
  });
  await handler(params, request);
  return seen!;
}

it('caps maxTokens and narrows includeContext to what policy allows', async () => {
  expect((await shaped({})).params).toMatchObject({ maxTokens: 1000, includeContext: 'none' });
  expect((await shaped({ maxTokens: 100, includeContext: 'thisServer' })).params).toMatchObject({
    maxTokens: 100,
    includeContext: 'thisServer',
  });
  expect((await shaped({ includeContext: 'allServers' })).params.includeContext).toBe('allServers');
});

it('matches modelPreferences hints in order against the allowed host models', async () => {
  expect((await shaped({})).model).toBe('claude-haiku');
  expect(chooseModel({ models: ['a', 'b'], policy: { models: ['b'] } }, {})).toBe('b');
  expect(chooseModel({ models: ['a'], policy: { models: ['z'] } }, {})).toBeUndefined();
});

it('an application chooser picks among the allowed models only; a pick outside them refuses', async () => {
  const seen: unknown[] = [];
  const run = (choose: (request: { models: readonly string[] }) => string | undefined) =>
    samplingHandler({
      server: 's',
      policy: { models: ['claude-haiku', 'gpt-mini'] },
      models: ['claude-sonnet', 'claude-haiku', 'gpt-mini'],
      model: (call) => ({ role: 'assistant', model: call.model, content: { type: 'text', text: 'ok' } }),
      choose: (request) => {
        seen.push(request);
        return choose(request);
      },
      hooks: { sampling: () => 'once' },
      consent: new ConsentMemory(undefined),
      audit: { emit: undefined, showArguments: false },
    })(params, request);
  expect(await run(({ models }) => models.at(-1))).toMatchObject({ model: 'gpt-mini' });
  expect(seen[0]).toEqual({
    server: 's',
    preferences: params.modelPreferences,
    models: ['claude-haiku', 'gpt-mini'],
  });
  await expect(run(() => 'claude-sonnet')).rejects.toMatchObject({ code: -1 });
  await expect(run(() => undefined)).rejects.toMatchObject({ code: -1 });
});
