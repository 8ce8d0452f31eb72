import { describe, expect, it } from 'vitest';
import { EventHub } from './eventHub.js';
import { Questions } from './questions.js';
import { askForView } from './viewQuestions.js';

describe('askForView', () => {
  it("asks a view's questions as the tool's view, with only the checked fields of each file", async () => {
    const questions = new Questions(new EventHub());
    const files = [
      { name: 'notes.json', mimeType: 'application/json', size: 19, html: '<b>extra</b>' },
      { name: 'R', url: 'https://example.com/r.pdf' },
    ];
    const saved = askForView(questions, {
      kind: 'download',
      tool: 'show_desk',
      server: 'desk',
      params: { files },
    });
    expect(questions.waiting()).toMatchObject([
      {
        kind: 'download',
        view: 'show_desk',
        server: 'desk',
        params: {
          files: [
            { name: 'notes.json', mimeType: 'application/json', size: 19 },
            { name: 'R', url: 'https://example.com/r.pdf' },
          ],
        },
      },
    ]);
    expect(questions.waiting()[0]!.params).not.toHaveProperty('files.0.html');
    questions.answer('q1', { accept: true });
    expect(await saved).toEqual({ accepted: true });
    const declined = askForView(questions, { kind: 'download', tool: 'show_desk', params: { files } });
    questions.answer('q2', { accept: 'yes' });
    expect(await declined).toEqual({ accepted: false });

    const reply = askForView(questions, {
      kind: 'sampling',
      tool: 'show_desk',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 },
    });
    expect(questions.waiting()).toMatchObject([{ kind: 'sampling', view: 'show_desk' }]);
    questions.answer('q3', { approve: false });
    await expect(reply).rejects.toMatchObject({ code: -1, message: 'User rejected sampling request' });
  });

  it('refuses what is not a view question, before asking anyone', async () => {
    const questions = new Questions(new EventHub());
    const file = { name: 'a.txt', size: 1 };
    for (const [asked, message] of [
      [{ kind: 'download', params: { files: [file] } }, '"tool" must be a string'],
      [{ kind: 'download', tool: 't', params: { files: [] } }, '"files" must list 1 to 16 files'],
      [{ kind: 'download', tool: 't', params: { files: [{ ...file, size: -1 }] } }, 'A file size'],
      [{ kind: 'download', tool: 't', params: { files: [{ name: 'x'.repeat(3000) }] } }, 'A file name'],
      [{ kind: 'sampling', tool: 't', params: { messages: 'hi' } }, 'needs messages and maxTokens'],
      [{ kind: 'exec', tool: 't', params: {} }, '"kind" must be sampling or download'],
    ] as const)
      await expect(askForView(questions, asked)).rejects.toThrow(message);
    expect(questions.waiting()).toEqual([]);
  });
});
