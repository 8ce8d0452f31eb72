import { McpError } from '@mcpkit/core';
import { isPlainObject } from '@mcpkit/core/internal';
import { describe, expect, it } from 'vitest';
import {
  invalidArgumentsResult,
  isCallToolResult,
  isContentBlock,
  structuredResult,
  ToolError,
  thrownErrorText,
  toCallToolResult,
} from './toolResult.js';

describe('content blocks and results', () => {
  it('recognises each block type only with its required members', () => {
    expect(isContentBlock({ type: 'text', text: '' })).toBe(true);
    expect(isContentBlock({ type: 'image', data: 'AA==', mimeType: 'image/png' })).toBe(true);
    expect(isContentBlock({ type: 'audio', data: 'AA==' })).toBe(false);
    expect(isContentBlock({ type: 'resource_link', uri: 'a:b', name: 'b' })).toBe(true);
    expect(isContentBlock({ type: 'resource', resource: { uri: 'a:b', text: '' } })).toBe(true);
    expect(isContentBlock({ type: 'video', data: 'x' })).toBe(false);
    expect(isContentBlock('text')).toBe(false);
  });

  it('treats an object as a CallToolResult only when its content is a list of blocks', () => {
    expect(isCallToolResult({ content: [] })).toBe(true);
    expect(isCallToolResult({ content: [{ type: 'text', text: 'x' }], structuredContent: {} })).toBe(true);
    expect(isCallToolResult({ content: ['x'] })).toBe(false);
    expect(isCallToolResult({ content: 'x' })).toBe(false);
    expect(isCallToolResult([{ type: 'text', text: 'x' }])).toBe(false);
  });

  it('knows plain objects from class instances', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject([])).toBe(false);
  });
});

describe('toCallToolResult', () => {
  it('wraps each kind of plain return', () => {
    expect(toCallToolResult(undefined)).toEqual({ content: [] });
    expect(toCallToolResult('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(toCallToolResult(null)).toEqual({ content: [{ type: 'text', text: 'null' }] });
    expect(toCallToolResult(true)).toEqual({ content: [{ type: 'text', text: 'true' }] });
    const block = { type: 'text', text: 'b' } as const;
    expect(toCallToolResult(block)).toEqual({ content: [block] });
    expect(toCallToolResult([block, block])).toEqual({ content: [block, block] });
    const full = { content: [block], isError: true };
    expect(toCallToolResult(full)).toBe(full);
    expect(toCallToolResult({ a: [1] })).toEqual({ content: [{ type: 'text', text: '{"a":[1]}' }] });
  });

  it('refuses what JSON cannot carry', () => {
    expect(() => toCallToolResult(10n)).toThrow(TypeError);
    expect(() => toCallToolResult(() => 1)).toThrow(/not JSON/);
  });

  it('adds the JSON text fallback to structured output', () => {
    expect(structuredResult({ n: 1 })).toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      structuredContent: { n: 1 },
    });
  });
});

describe('error results', () => {
  it('lists argument issues with paths for the model', () => {
    const result = invalidArgumentsResult('echo', [
      { path: '', message: 'missing required property "text"' },
      { path: '/n', message: 'must be number' },
    ]);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'Invalid arguments for tool "echo":\n- (root): missing required property "text"\n- /n: must be number\nFix these arguments to match the tool\'s inputSchema and call it again.',
    });
  });

  it('masks plain errors, shows ToolError and McpError messages, shows raw messages when unmasked, never shows stacks', () => {
    const error = new Error('City not found');
    expect(thrownErrorText('w', error, false)).toBe('City not found');
    expect(thrownErrorText('w', error, false)).not.toContain('at ');
    expect(thrownErrorText('w', error, true)).toBe('Tool "w" failed with an internal error.');
    expect(thrownErrorText('w', new ToolError('Try Paris'), true)).toBe('Try Paris');
    expect(thrownErrorText('w', new McpError(-32602, 'Bad cursor'), true)).toBe('Bad cursor');
    expect(thrownErrorText('w', 'plain string', false)).toBe('plain string');
    expect(thrownErrorText('w', { weird: true }, false)).toBe('Tool "w" failed.');
    expect(thrownErrorText('w', new Error(''), false)).toBe('Tool "w" failed.');
  });
});
