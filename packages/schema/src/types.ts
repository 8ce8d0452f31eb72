/**
 * Type-level helpers: the TypeScript type a schema validates to.
 *
 * Every helper here recurses a bounded number of levels, so no schema, however large or
 * self-referential, can trigger "Type instantiation is excessively deep" (TS2589).
 * @module
 */

/** Counts recursion levels down; `never` stops. */
type Countdown = [never, 0, 1, 2, 3, 4, 5, 6, 7];

/** Levels below the top that {@link JsonSchemaType} looks into (six levels in all) before answering `unknown`. */
type DefaultDepth = 5;

type IsAny<T> = 0 extends 1 & T ? true : false;

/** Flattens an intersection of object types for readable hovers. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeysOf<S> = S extends { readonly required: readonly (infer Key)[] } ? Key : never;

type ObjectType<S, Depth extends number> = S extends { readonly properties: infer Properties extends object }
  ? Simplify<
      {
        -readonly [K in keyof Properties as K extends RequiredKeysOf<S> ? K : never]: JsonSchemaType<
          Properties[K],
          Countdown[Depth]
        >;
      } & {
        -readonly [K in keyof Properties as K extends RequiredKeysOf<S> ? never : K]?: JsonSchemaType<
          Properties[K],
          Countdown[Depth]
        >;
      }
    >
  : Record<string, unknown>;

type ArrayType<S, Depth extends number> = S extends { readonly items: infer Items }
  ? JsonSchemaType<Items, Countdown[Depth]>[]
  : unknown[];

type TypeNamed<Name, S, Depth extends number> = Name extends 'string'
  ? string
  : Name extends 'number' | 'integer'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'array'
          ? ArrayType<S, Depth>
          : Name extends 'object'
            ? ObjectType<S, Depth>
            : unknown;

/**
 * The TypeScript type of values a JSON Schema literal accepts, for simple schemas written
 * `as const`: `type` (one or a list), `properties` + `required`, `items`, `enum`, `const`, `anyOf`
 * and `oneOf`. Anything else, a schema typed only as `JsonSchema`, or nesting deeper than six
 * levels gives `unknown` (an object with no `properties` gives `Record<string, unknown>`).
 *
 * @example
 * ```ts
 * const schema = {
 *   type: 'object',
 *   properties: { text: { type: 'string' }, count: { type: 'integer' } },
 *   required: ['text'],
 * } as const;
 * type Args = JsonSchemaType<typeof schema>; // { text: string; count?: number }
 * ```
 */
export type JsonSchemaType<S, Depth extends number = DefaultDepth> =
  IsAny<S> extends true
    ? unknown
    : [Depth] extends [never]
      ? unknown
      : S extends true
        ? unknown
        : S extends false
          ? never
          : S extends { readonly const: infer Value }
            ? Value
            : S extends { readonly enum: readonly (infer Member)[] }
              ? Member
              : S extends { readonly anyOf: readonly (infer Option)[] }
                ? JsonSchemaType<Option, Countdown[Depth]>
                : S extends { readonly oneOf: readonly (infer Option)[] }
                  ? JsonSchemaType<Option, Countdown[Depth]>
                  : S extends { readonly type: infer Name }
                    ? Name extends readonly (infer Each)[]
                      ? TypeNamed<Each, S, Depth>
                      : TypeNamed<Name, S, Depth>
                    : S extends { readonly properties: object }
                      ? ObjectType<S, Depth>
                      : unknown;

/** What a Standard Schema's `~standard.types` declares, read without instantiating the schema type. */
type StandardTypes<S> = S extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types>
  : never;

type IsStandard<S> = S extends { readonly '~standard': object } ? true : false;

/**
 * The type a schema produces after validation: a Standard Schema's output type (after defaults
 * and transforms), or {@link JsonSchemaType} for a JSON Schema.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 *
 * const Args = z.object({ n: z.string().transform(Number) });
 * type Parsed = InferSchemaOutput<typeof Args>; // { n: number }
 * ```
 */
export type InferSchemaOutput<S> =
  IsAny<S> extends true
    ? unknown
    : IsStandard<S> extends true
      ? StandardTypes<S> extends { readonly output: infer Output }
        ? Output
        : unknown
      : JsonSchemaType<S>;

/**
 * The type a schema accepts before validation: a Standard Schema's input type, or
 * {@link JsonSchemaType} for a JSON Schema.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 *
 * const Args = z.object({ n: z.string().transform(Number) });
 * type Sent = InferSchemaInput<typeof Args>; // { n: string }
 * ```
 */
export type InferSchemaInput<S> =
  IsAny<S> extends true
    ? unknown
    : IsStandard<S> extends true
      ? StandardTypes<S> extends { readonly input: infer Input }
        ? Input
        : unknown
      : JsonSchemaType<S>;

/**
 * What an unwrapped valibot schema would need to be accepted: valibot schemas carry no JSON
 * Schema converter of their own, so mcpkit cannot tell a peer what they accept. The type shows
 * up in the compiler's message, which is why its only member spells out the fix.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { toStandardJsonSchema } from '@valibot/to-json-schema';
 *
 * // server.tool('echo', { inputSchema: v.object({ text: v.string() }) }, ...);  // compile error
 * server.tool('echo', { inputSchema: toStandardJsonSchema(v.object({ text: v.string() })) }, ({ text }) => text);
 * ```
 */
export interface UnwrappedValibotSchema {
  readonly '~standard': {
    readonly jsonSchema: 'Wrap valibot schemas with toStandardJsonSchema() from "@valibot/to-json-schema"';
  };
}

/**
 * `unknown` (no constraint) for a schema mcpkit can describe as JSON Schema, and
 * {@link UnwrappedValibotSchema} for a valibot schema that was not wrapped with
 * `toStandardJsonSchema()`. APIs that take a schema intersect their parameter with it, so the
 * unwrapped schema is a compile error instead of a `SchemaConversionError` at registration.
 *
 * @example
 * ```ts
 * function register<const S extends SchemaInput>(schema: S & RequireJsonSchemaConverter<S>) {}
 * register(z.object({}));                          // fine
 * register(toStandardJsonSchema(v.object({})));    // fine
 * // @ts-expect-error wrap it with toStandardJsonSchema()
 * register(v.object({}));
 * ```
 */
export type RequireJsonSchemaConverter<S> = S extends { readonly '~standard': { readonly vendor: 'valibot' } }
  ? S extends { readonly '~standard': { readonly jsonSchema: object } }
    ? unknown
    : UnwrappedValibotSchema
  : unknown;
