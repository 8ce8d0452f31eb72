import { describe, expect, it } from 'vitest';
import type { ServeSettings } from '../argTypes.js';
import { createStyle } from '../output.js';
import { banner } from './serve.js';

const settings: ServeSettings = {
  transport: 'http',
  port: 3000,
  host: '127.0.0.1',
  stateless: false,
  jsonResponse: false,
  folders: [],
};

describe('the serve --http banner', () => {
  it('advertises the legacy HTTP+SSE URL when it is served', () => {
    const text = banner(
      'http://127.0.0.1:3000/mcp',
      'http://127.0.0.1:3000/sse',
      settings,
      createStyle(false),
    );
    expect(text).toContain('legacy HTTP+SSE clients: http://127.0.0.1:3000/sse');
  });

  it('issue 35: behind --auth-issuer (no legacy endpoint) it advertises no /sse URL, and says it is off', () => {
    const text = banner(
      'http://127.0.0.1:3000/mcp',
      undefined,
      { ...settings, authIssuer: 'http://127.0.0.1:9000' },
      createStyle(false),
    );
    expect(text).not.toContain('/sse');
    expect(text).toContain('legacy HTTP+SSE: off');
  });
});
