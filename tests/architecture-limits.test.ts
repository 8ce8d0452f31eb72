/**
 * Issue 11's structural promise, kept: `McpServer` is a thin facade over the feature modules. Its
 * file once held every feature's logic (823 lines); each feature now owns its module, and this test
 * stops the facade from quietly growing back.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const FACADE = new URL('../packages/server/src/mcpServer.ts', import.meta.url);
const FACADE_MAX_LINES = 300;

describe('architecture limits (issue 11)', () => {
  it(`McpServer's facade stays at most ${FACADE_MAX_LINES} lines`, async () => {
    const text = await readFile(FACADE, 'utf8');
    const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    expect(lines).toBeLessThanOrEqual(FACADE_MAX_LINES);
  });
});
