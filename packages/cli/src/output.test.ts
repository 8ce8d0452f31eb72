import { describe, expect, it } from 'vitest';
import {
  createStyle,
  describeCapabilities,
  formatBytes,
  renderCompletion,
  renderToolResult,
  table,
  wantsColor,
} from './output.js';
import { ProgressBar } from './progress.js';

const plain = createStyle(false);

describe('output', () => {
  it('colours only terminals, and honours NO_COLOR and FORCE_COLOR', () => {
    expect(wantsColor({ write: () => true, isTTY: true }, {})).toBe(true);
    expect(wantsColor({ write: () => true, isTTY: false }, {})).toBe(false);
    expect(wantsColor({ write: () => true, isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ write: () => true }, { FORCE_COLOR: '1' })).toBe(true);
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  it('lays out tables to the width, aligned despite colour', () => {
    const coloured = createStyle(true);
    const text = table(
      [
        [coloured.cyan('echo'), 'Returns the text it is given, and nothing more than that'],
        ['add', 'Adds'],
      ],
      ['NAME', 'DESCRIPTION'],
      plain,
      30,
    );
    expect(text.split('\n')).toEqual([
      'NAME  DESCRIPTION',
      `${coloured.cyan('echo')}  Returns the text it is …`,
      'add   Adds',
    ]);
  });

  it('renders results for people', () => {
    expect(
      describeCapabilities({
        tools: { listChanged: true },
        tasks: { requests: { tools: { call: {} } } },
        logging: {},
      }),
    ).toBe('tools (listChanged), tasks (requests.tools.call), logging');
    expect(
      renderToolResult(
        {
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', annotations: { audience: ['user'] } },
          ],
        },
        plain,
      ),
    ).toBe('Hi\n[audio audio/wav, 3 B] (for user)\n');
    expect(renderToolResult({ content: [], structuredContent: { a: 1 } }, plain)).toBe('{\n  "a": 1\n}\n');
    expect(renderCompletion({ completion: { values: ['a'], total: 5, hasMore: true } }, plain)).toBe(
      'a\n… and 4 more\n',
    );
    expect(formatBytes(1536)).toBe('1.5 KB');
  });
});

describe('ProgressBar', () => {
  it('draws in place, fits the width, and clears its line', () => {
    let written = '';
    const stream = {
      write: (text: string | Uint8Array) => (written += String(text)),
      isTTY: true,
      columns: 80,
    };
    const bar = new ProgressBar(stream, plain);
    expect(bar.render({ progress: 5, total: 10, message: 'half' })).toMatch(
      /^\[█{12}░{12}\] {2}50% 5\/10 half \d+\.\ds$/,
    );
    expect(bar.render({ progress: 3 })).toMatch(/^⠋ 3 \d+\.\ds$/);
    bar.clear();
    expect(written).toBe('');
    bar.update({ progress: 1, total: 4 });
    bar.clear();
    const clearLine = '\r\u001b[K';
    expect(written.startsWith(`${clearLine}[`)).toBe(true);
    expect(written).toContain(']  25% 1/4 ');
    expect(written.endsWith(`s${clearLine}`)).toBe(true);
  });
});
