import { describe, expect, it } from 'vitest';
import { elicit, PERSON_MODEL, sample } from './answers.js';
import { EventHub } from './eventHub.js';
import { Questions, QuestionWithdrawnError } from './questions.js';

/** The first `count` events a new page would get from the hub (its backlog). */
async function eventsOf(hub: EventHub, count: number): Promise<string[]> {
  const reader = hub.stream().body!.getReader();
  let text = '';
  for (let i = 0; i < count; i++) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]!);
}

describe('Questions', () => {
  it('turns the answers the page gives into what the server is sent, checked', async () => {
    const hub = new EventHub();
    const questions = new Questions(hub);
    const form = elicit(questions, 'elicitation', { message: 'Name?' });
    const [first] = questions.waiting();
    expect(first).toMatchObject({ id: 'q1', kind: 'elicitation' });
    expect(questions.answer('q1', { action: 'accept', content: { name: 'Ada' } })).toBe(true);
    expect(await form).toEqual({ action: 'accept', content: { name: 'Ada' } });

    const odd = elicit(questions, 'elicitation', {});
    questions.answer('q2', { action: 'whatever' });
    expect(await odd).toEqual({ action: 'cancel' });

    const approved = sample(questions, { messages: [], maxTokens: 10 });
    questions.answer('q3', { approve: true, text: 'Hi' });
    expect(await approved).toMatchObject({ content: { type: 'text', text: 'Hi' }, model: PERSON_MODEL });
    const rejected = sample(questions, { messages: [], maxTokens: 10 });
    questions.answer('q4', { approve: false });
    await expect(rejected).rejects.toMatchObject({ code: -1, message: 'User rejected sampling request' });

    expect(questions.answer('q4', {})).toBe(false);
    expect(await eventsOf(hub, 8)).toEqual([
      'question',
      'answered',
      'question',
      'answered',
      'question',
      'answered',
      'question',
      'answered',
    ]);
    hub.close();
  });

  it('withdraws a question the server cancels, and the oldest past 32', async () => {
    const questions = new Questions(new EventHub());
    const controller = new AbortController();
    const asked = questions.ask('sampling', {}, controller.signal);
    controller.abort();
    await expect(asked).rejects.toBeInstanceOf(QuestionWithdrawnError);
    const many = Array.from({ length: 33 }, () =>
      questions.ask('sampling', {}).catch((error: unknown) => error),
    );
    expect(questions.waiting()).toHaveLength(32);
    expect(await many[0]).toBeInstanceOf(QuestionWithdrawnError);
    questions.close();
    expect(questions.waiting()).toHaveLength(0);
  });
});
