/**
 * Type-level tests, checked by `tsc -p tsconfig.json` (vitest's `expectTypeOf` is erased at run
 * time). A wrong inference here is a compile error in the repository typecheck.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { InferSchemaInput, InferSchemaOutput, JsonSchema, JsonSchemaType } from './index.js';

describe('InferSchemaOutput / InferSchemaInput for Standard Schemas', () => {
  it('reads zod input and output types', () => {
    const Args = z.object({ port: z.string().transform(Number), tags: z.array(z.string()).optional() });
    expectTypeOf<InferSchemaOutput<typeof Args>>().toEqualTypeOf<{
      port: number;
      tags?: string[] | undefined;
    }>();
    expectTypeOf<InferSchemaInput<typeof Args>>().toEqualTypeOf<{
      port: string;
      tags?: string[] | undefined;
    }>();
  });

  it('reads arktype and valibot types', () => {
    const Ark = type({ text: 'string', 'n?': 'number' });
    expectTypeOf<InferSchemaOutput<typeof Ark>>().toEqualTypeOf<{ text: string; n?: number }>();
    const Vali = v.object({ text: v.string() });
    expectTypeOf<InferSchemaOutput<typeof Vali>>().toEqualTypeOf<{ text: string }>();
  });

  it('stays shallow on a wide zod schema (no TS2589)', () => {
    const Wide = z.object(
      Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`f${index}`, z.string()])) as Record<
        `f${number}`,
        z.ZodString
      >,
    );
    expectTypeOf<InferSchemaOutput<typeof Wide>>().toEqualTypeOf<Record<`f${number}`, string>>();
  });
});

describe('JsonSchemaType for JSON Schema literals', () => {
  it('infers objects with required and optional properties', () => {
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string' },
        count: { type: 'integer' },
        mode: { enum: ['fast', 'slow'] },
        tags: { type: 'array', items: { type: 'string' } },
        note: { type: ['string', 'null'] },
      },
      required: ['text', 'mode'],
    } as const;
    expectTypeOf<InferSchemaOutput<typeof schema>>().toEqualTypeOf<{
      text: string;
      mode: 'fast' | 'slow';
      count?: number;
      tags?: string[];
      note?: string | null;
    }>();
  });

  it('infers const, anyOf and booleans', () => {
    expectTypeOf<JsonSchemaType<{ const: 'on' }>>().toEqualTypeOf<'on'>();
    expectTypeOf<
      JsonSchemaType<{ anyOf: readonly [{ type: 'string' }, { type: 'number' }] }>
    >().toEqualTypeOf<string | number>();
    expectTypeOf<JsonSchemaType<true>>().toBeUnknown();
    expectTypeOf<JsonSchemaType<false>>().toBeNever();
  });

  it('falls back to unknown or Record<string, unknown> when the schema says little', () => {
    expectTypeOf<InferSchemaOutput<JsonSchema>>().toBeUnknown();
    expectTypeOf<InferSchemaOutput<{ type: 'object' }>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<InferSchemaOutput<{ description: 'anything' }>>().toBeUnknown();
    expectTypeOf<InferSchemaOutput<any>>().toBeUnknown();
  });

  it('stops recursing after six levels instead of exhausting the checker', () => {
    type Nest<S> = { type: 'object'; properties: { next: S }; required: ['next'] };
    type Deep = Nest<Nest<Nest<Nest<Nest<Nest<Nest<Nest<{ type: 'string' }>>>>>>>>;
    type Level6 = JsonSchemaType<Deep>['next']['next']['next']['next']['next'];
    expectTypeOf<Level6>().toEqualTypeOf<{ next: unknown }>();
  });
});
