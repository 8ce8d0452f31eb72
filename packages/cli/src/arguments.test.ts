import type { Prompt, Tool } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { buildPromptArguments, buildToolArguments, coerceValue, toolUsage } from './arguments.js';
import { CliError } from './errors.js';

const search: Tool = {
  name: 'search',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 1 },
      ratio: { type: 'number' },
      exact: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      ids: { type: 'array', items: { type: 'integer' } },
      filter: { type: 'object' },
      cursor: { type: ['string', 'null'] },
      mode: { enum: ['fast', 'deep'] },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

function failure(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error('expected a CliError');
}

describe('buildToolArguments', () => {
  it('coerces each value by its property schema', () => {
    expect(
      buildToolArguments(
        search,
        [
          'query=a=b',
          'limit=3',
          'ratio=-0.5',
          'exact=yes',
          'tags=x,y',
          'ids=[1,2]',
          'filter={"k":1}',
          'cursor=null',
          'mode=deep',
        ],
        undefined,
      ),
    ).toEqual({
      query: 'a=b',
      limit: 3,
      ratio: -0.5,
      exact: true,
      tags: ['x', 'y'],
      ids: [1, 2],
      filter: { k: 1 },
      cursor: null,
      mode: 'deep',
    });
  });

  it('keeps numbers-as-text as strings where the schema says string', () => {
    expect(buildToolArguments(search, ['query=42'], undefined)).toEqual({ query: '42' });
  });

  it('adds repeated keys to lists, and lets pairs override --args', () => {
    expect(
      buildToolArguments(search, ['query=q', 'tags=a', 'tags=b,c'], '{"query":"old","limit":2}'),
    ).toEqual({
      query: 'q',
      limit: 2,
      tags: ['a', 'b', 'c'],
    });
  });

  it('parses JSON-looking values when there is no schema for them', () => {
    const open: Tool = { name: 'open', inputSchema: { type: 'object' } };
    expect(buildToolArguments(open, ['n=5', 'b=false', 'o={"a":1}', 's=hello', 'q="5"'], undefined)).toEqual({
      n: 5,
      b: false,
      o: { a: 1 },
      s: 'hello',
      q: '5',
    });
  });

  it('reports what was expected, with the tool usage', () => {
    const wrongType = failure(() => buildToolArguments(search, ['query=q', 'limit=many'], undefined));
    expect(wrongType.message).toBe('Argument "limit" expects an integer, got "many"');
    expect(wrongType.hint).toBe(
      'Usage: mcpkit call TARGET search query=<string> [limit=<integer>] [ratio=<number>] [exact=<boolean>] [tags=<array>] [ids=<array>] [filter=<object>] [cursor=<string|null>] [mode=<string>]',
    );
    expect(failure(() => buildToolArguments(search, ['limit=1'], undefined)).message).toContain(
      'missing required property "query"',
    );
    expect(failure(() => buildToolArguments(search, ['query=q', 'limit=0'], undefined)).message).toContain(
      'limit:',
    );
    expect(failure(() => buildToolArguments(search, ['query=q', 'mode=slow'], undefined)).message).toContain(
      'mode:',
    );
    expect(failure(() => buildToolArguments(search, ['query=q', 'nope=1'], undefined)).message).toBe(
      'Tool "search" has no argument "nope"',
    );
    expect(failure(() => buildToolArguments(search, ['query=q', 'query=r'], undefined)).message).toBe(
      'Argument "query" is given twice',
    );
    expect(failure(() => buildToolArguments(search, ['oops'], undefined)).message).toContain('key=value');
    expect(failure(() => buildToolArguments(search, [], '[1]')).message).toBe('--args must be a JSON object');
  });
});

describe('coerceValue and toolUsage', () => {
  it('tries the most specific type first', () => {
    expect(coerceValue('x', '7', { type: ['string', 'integer'] })).toBe(7);
    expect(coerceValue('x', 'seven', { type: ['string', 'integer'] })).toBe('seven');
    expect(coerceValue('x', '', { type: 'array' })).toEqual([]);
    expect(coerceValue('x', '1', { anyOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe(true);
  });

  it('describes a tool without arguments', () => {
    expect(toolUsage({ name: 'ping', inputSchema: { type: 'object' } })).toBe('mcpkit call TARGET ping');
  });
});

describe('buildPromptArguments', () => {
  const greet: Prompt = {
    name: 'greet',
    arguments: [{ name: 'name', required: true }, { name: 'style' }],
  };

  it('keeps values as strings and checks names and required arguments', () => {
    expect(buildPromptArguments(greet, ['name=Ada', 'style=warm'], undefined)).toEqual({
      name: 'Ada',
      style: 'warm',
    });
    expect(buildPromptArguments(greet, [], '{"name": 42}')).toEqual({ name: '42' });
    expect(failure(() => buildPromptArguments(greet, ['style=x'], undefined)).message).toBe(
      'Prompt "greet" needs "name"',
    );
    expect(failure(() => buildPromptArguments(greet, ['name=a', 'tone=x'], undefined)).hint).toBe(
      'Usage: mcpkit get TARGET greet name=<text> [style=<text>]',
    );
  });
});
