/**
 * Type-level tests for the schemas `server.tool()` and `server.prompt()` accept, checked by
 * `npm run typecheck` (tsc). Each `@ts-expect-error` fails the typecheck if the line it marks
 * compiles, so the rejection of an unwrapped valibot schema cannot silently disappear.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../mcpServer.js';
import { promptSupport } from '../prompts/promptsFeature.js';

const server = new McpServer({ name: 'types', version: '0.0.0' }, { prompts: promptSupport });

describe('an unwrapped valibot schema is a compile error (it has no JSON Schema converter)', () => {
  it('rejects an unwrapped valibot inputSchema and outputSchema', () => {
    // @ts-expect-error valibot schemas must be wrapped with toStandardJsonSchema()
    server.tool('unwrapped-in', { inputSchema: v.object({ text: v.string() }) }, () => 'x');
    server.tool(
      'unwrapped-out',
      // @ts-expect-error valibot schemas must be wrapped with toStandardJsonSchema()
      { outputSchema: v.object({ n: v.number() }) },
      () => ({ n: 1 }),
    );
  });

  it('rejects an unwrapped valibot schema as prompt arguments', () => {
    // @ts-expect-error valibot schemas must be wrapped with toStandardJsonSchema()
    server.prompt('unwrapped-prompt', { arguments: v.object({ code: v.string() }) }, () => 'x');
  });
});

describe('schemas that can describe themselves are accepted with their types', () => {
  it('accepts a valibot schema wrapped with toStandardJsonSchema()', () => {
    server.tool(
      'wrapped',
      {
        inputSchema: toStandardJsonSchema(v.object({ text: v.string() })),
        outputSchema: toStandardJsonSchema(v.object({ length: v.number() })),
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>();
        return { length: args.text.length };
      },
    );
    server.prompt(
      'wrapped-prompt',
      { arguments: toStandardJsonSchema(v.object({ code: v.string() })) },
      (args) => {
        expectTypeOf(args.code).toEqualTypeOf<string>();
        return args.code;
      },
    );
  });

  it('accepts zod and arktype schemas', () => {
    server.tool('zod', { inputSchema: z.object({ n: z.number() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number }>();
      return String(args.n);
    });
    server.tool('arktype', { inputSchema: type({ text: 'string' }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ text: string }>();
      return args.text;
    });
  });

  it('accepts JSON Schema literals and argument lists', () => {
    server.tool(
      'json',
      { inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ q: string }>();
        return args.q;
      },
    );
    server.prompt('list', { arguments: [{ name: 'code', required: true }] }, (args) => {
      expectTypeOf(args.code).toEqualTypeOf<string>();
      return args.code;
    });
  });
});
