import { PassThrough } from 'node:stream';
import type { ElicitRequestFormParams } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { askForm, askUrl, type FormTerminal, parseAnswer } from './form.js';
import { createStyle } from './output.js';

const style = createStyle(false);

/**
 * A scripted terminal: each time a question (text ending in ": " or "] ") is printed, the next
 * answer is typed. `null` ends the input (Ctrl-D).
 */
function terminal(answers: Array<string | null>): FormTerminal & { transcript: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let transcript = '';
  output.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    transcript += text;
    if (!/(: |\] )$/.test(text)) return;
    const answer = answers.shift();
    setImmediate(() => (answer === null ? input.end() : input.write(`${answer}\n`)));
  });
  return { input, output, terminal: false, transcript: () => transcript };
}

const booking: ElicitRequestFormParams = {
  message: 'Book a table',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      guests: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
      when: { type: 'string', format: 'date' },
      seating: {
        type: 'string',
        oneOf: [
          { const: 'in', title: 'Indoors' },
          { const: 'out', title: 'Terrace' },
        ],
      },
      diet: { type: 'array', items: { type: 'string', enum: ['vegan', 'vegetarian', 'halal'] }, maxItems: 2 },
      reminder: { type: 'boolean', default: false },
    },
    required: ['name', 'when'],
  },
};

describe('askForm', () => {
  it('asks field by field, re-asks invalid answers, takes defaults and submits', async () => {
    const io = terminal(['A', 'Ada', '', 'soon', '2025-12-01', '2', 'vegan,halal', 'y', '']);
    const result = await askForm(booking, io, style);
    expect(result).toEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        guests: 2,
        when: '2025-12-01',
        seating: 'out',
        diet: ['vegan', 'halal'],
        reminder: true,
      },
    });
    const transcript = io.transcript();
    expect(transcript).toContain('The server asks: Book a table');
    expect(transcript).toContain('Name* (text): ');
    expect(transcript).toContain('At least 2 characters.');
    expect(transcript).toContain('guests (whole number, 1 to 8) [2]: ');
    expect(transcript).toContain('Enter a date as YYYY-MM-DD.');
    expect(transcript).toContain('  2) Terrace (out)');
    expect(transcript).toContain('reminder (y/n) [n]: ');
  });

  it('requires required fields, skips optional ones', async () => {
    const io = terminal(['', 'Bo', '', '2025-01-01', '', '', '', '']);
    const result = await askForm(booking, io, style);
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Bo', guests: 2, when: '2025-01-01', reminder: false },
    });
    expect(io.transcript()).toContain('This field is required.');
  });

  it('declines on end of input, and when the user says no at the end', async () => {
    expect(await askForm(booking, terminal(['Ada', null]), style)).toEqual({ action: 'decline' });
    const answers = ['Ada', '', '2025-01-01', '1', '', '', 'n'];
    expect(await askForm(booking, terminal(answers), style)).toEqual({ action: 'decline' });
  });

  it('cancels when the request is cancelled', async () => {
    const controller = new AbortController();
    const io = terminal([]);
    const pending = askForm(booking, io, style, controller.signal);
    controller.abort();
    expect(await pending).toEqual({ action: 'cancel' });
  });
});

describe('askUrl', () => {
  it('shows the URL and its host, and reports the choice', async () => {
    const params = {
      mode: 'url' as const,
      message: 'Sign in',
      elicitationId: 'e1',
      url: 'https://auth.example.com/x',
    };
    const io = terminal(['y']);
    expect(await askUrl(params, io, style)).toEqual({ action: 'accept' });
    expect(io.transcript()).toContain('https://auth.example.com/x');
    expect(io.transcript()).toContain('(on auth.example.com; only open it if you trust that site)');
    expect(await askUrl(params, terminal(['']), style)).toEqual({ action: 'decline' });
  });
});

describe('parseAnswer', () => {
  it('checks numbers, booleans, formats and choices', () => {
    expect(parseAnswer('3.5', { type: 'number' }, undefined)).toBe(3.5);
    expect(parseAnswer('3.5', { type: 'integer' }, undefined)).toEqual({ problem: 'Enter a whole number.' });
    expect(parseAnswer('x', { type: 'boolean' }, undefined)).toEqual({ problem: 'Answer y or n.' });
    expect(parseAnswer('a@b', { type: 'string', format: 'email' }, undefined)).toBe('a@b');
    expect(parseAnswer('nope', { type: 'string', format: 'uri' }, undefined)).toHaveProperty('problem');
    const choices = [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ];
    expect(parseAnswer('Large', { type: 'string', enum: ['s', 'l'] }, choices)).toBe('l');
    expect(parseAnswer('3', { type: 'string', enum: ['s', 'l'] }, choices)).toEqual({
      problem: 'Choose 1 to 2.',
    });
  });
});
