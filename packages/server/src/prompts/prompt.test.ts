import { describe, expect, it } from 'vitest';
import { toGetPromptResult } from './prompt.js';

const user = (text: string) => ({ role: 'user' as const, content: { type: 'text' as const, text } });

describe('toGetPromptResult', () => {
  it('turns a string, one message or a list into messages, adding the prompt description', () => {
    expect(toGetPromptResult('hi', 'Greets')).toEqual({ description: 'Greets', messages: [user('hi')] });
    expect(toGetPromptResult(user('one'), undefined)).toEqual({ messages: [user('one')] });
    expect(
      toGetPromptResult([user('a'), { role: 'assistant', content: { type: 'text', text: 'b' } }], undefined),
    ).toEqual({
      messages: [user('a'), { role: 'assistant', content: { type: 'text', text: 'b' } }],
    });
  });

  it('keeps a full result and its own description', () => {
    const result = { description: 'Own', messages: [user('x')], _meta: { 'com.example/k': 1 } };
    expect(toGetPromptResult(result, 'Registered')).toEqual(result);
  });

  it('refuses messages with several blocks, unknown roles or no content', () => {
    for (const bad of [
      42,
      [{ role: 'system', content: { type: 'text', text: 'x' } }],
      [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      { messages: [{ role: 'user' }] },
    ]) {
      expect(() => toGetPromptResult(bad, undefined), JSON.stringify(bad)).toThrow(
        /prompt handler must return/,
      );
    }
  });
});
