/**
 * Reading a JSON Schema for a form: what kind of field a schema is, its variants (`oneOf`,
 * `anyOf`), whether it is nullable, its `$ref`s, and the starting value its defaults give.
 * Validation itself is @mcpkit/schema's, the same validator the libraries use.
 * @module
 */

export type Schema = Record<string, any>;

/**
 * The kind of field a schema becomes.
 *
 * @example
 * ```ts
 * fieldKind({ type: 'string', enum: ['a', 'b'] }); // 'enum'
 * ```
 */
export type FieldKind =
  | 'object'
  | 'array'
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'const'
  | 'variants'
  | 'json';

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) against the root schema. */
export function resolve(schema: Schema | boolean | undefined, root: Schema): Schema {
  if (schema === undefined || typeof schema === 'boolean') return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    target = (target as Schema | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  const { $ref: _ref, ...rest } = schema;
  return typeof target === 'object' && target !== null ? { ...(target as Schema), ...rest } : rest;
}

/** The types a schema allows, `null` included. */
function types(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return typeof schema.type === 'string' ? [schema.type] : [];
}

/**
 * Whether a schema allows `null` besides something else (`type: ['string', 'null']`, or a
 * `oneOf`/`anyOf` with a `{ type: 'null' }` branch); `inner` is the schema without the null.
 *
 * @example
 * ```ts
 * nullable({ type: ['string', 'null'] }); // { inner: { type: 'string' } }
 * ```
 */
export function nullable(schema: Schema): { inner: Schema } | undefined {
  const allowed = types(schema);
  if (allowed.includes('null') && allowed.length > 1) {
    const rest = allowed.filter((type) => type !== 'null');
    return { inner: { ...schema, type: rest.length === 1 ? rest[0] : rest } };
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const others = branches.filter((branch: Schema) => branch?.type !== 'null');
    if (others.length === branches.length || others.length === 0) continue;
    const { [key]: _drop, ...rest } = schema;
    return { inner: others.length === 1 ? { ...rest, ...others[0] } : { ...rest, [key]: others } };
  }
  return undefined;
}

/**
 * The kind of field for a (resolved, non-nullable) schema.
 *
 * @example
 * ```ts
 * fieldKind({ type: 'array', items: { type: 'string' } }); // 'array'
 * ```
 */
export function fieldKind(schema: Schema): FieldKind {
  if (choices(schema)) return 'enum';
  if ('const' in schema) return 'const';
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return 'variants';
  const [type, ...more] = types(schema);
  if (more.length > 0) return 'json';
  if (type === undefined && schema.properties) return 'object';
  switch (type) {
    case 'object':
    case 'array':
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return type;
    default:
      return 'json';
  }
}

/**
 * The fixed choices of a schema: its `enum` (labelled by `enumNames` when present), or a
 * `oneOf`/`anyOf` whose every branch is a `const` (labelled by each branch's `title`).
 *
 * @example
 * ```ts
 * choices({ oneOf: [{ const: 'a', title: 'A' }] }); // [{ value: 'a', label: 'A' }]
 * ```
 */
export function choices(schema: Schema): { value: unknown; label: string }[] | undefined {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value: unknown, index: number) => ({
      value,
      label: String(schema.enumNames?.[index] ?? value),
    }));
  }
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  if (!branches.every((branch: Schema) => branch && typeof branch === 'object' && 'const' in branch))
    return undefined;
  return branches.map((branch: Schema) => ({
    value: branch.const,
    label: String(branch.title ?? branch.const),
  }));
}

/** The variants of a `oneOf`/`anyOf` schema, each with the parent's other keywords. */
export function variants(schema: Schema): Schema[] {
  const branches: Schema[] = schema.oneOf ?? schema.anyOf ?? [];
  const { oneOf: _one, anyOf: _any, ...rest } = schema;
  return branches.map((branch) => ({ ...rest, ...branch }));
}

/** A short name for a variant: its title, its `const`, or its type. */
export function variantLabel(schema: Schema, index: number): string {
  if (typeof schema.title === 'string') return schema.title;
  if ('const' in schema) return JSON.stringify(schema.const);
  const required = Array.isArray(schema.required) ? ` (${schema.required.join(', ')})` : '';
  return `${types(schema).join(' | ') || `option ${index + 1}`}${required}`;
}

/**
 * The value a form starts with: the schema's `default`, else (for an object) its properties'
 * defaults and its required properties' starting values, else nothing.
 *
 * @example
 * ```ts
 * initialValue({ type: 'object', properties: { n: { type: 'integer', default: 3 } } }, root); // { n: 3 }
 * ```
 */
export function initialValue(schema: Schema | boolean | undefined, root: Schema, depth = 0): unknown {
  const resolved = resolve(schema, root);
  if ('default' in resolved) return structuredClone(resolved.default);
  if (depth > 8) return undefined;
  if (nullable(resolved)) return null;
  const kind = fieldKind(resolved);
  if (kind === 'const') return resolved.const;
  if (kind === 'variants') return initialValue(variants(resolved)[0], root, depth + 1);
  if (kind === 'boolean') return false;
  if (kind === 'array') return [];
  if (kind !== 'object') return undefined;
  const value: Record<string, unknown> = {};
  const required: string[] = Array.isArray(resolved.required) ? resolved.required : [];
  for (const [name, property] of Object.entries<Schema>(resolved.properties ?? {})) {
    const inner = resolve(property, root);
    if (!required.includes(name) && !('default' in inner)) continue;
    const start = initialValue(inner, root, depth + 1);
    if (start !== undefined) value[name] = start;
  }
  return value;
}

/**
 * Which variant of a `oneOf`/`anyOf` a value fits best: the first whose type, `const` and
 * required properties agree with it.
 */
export function chosenVariant(options: Schema[], value: unknown): number {
  const index = options.findIndex((option) => {
    if ('const' in option) return option.const === value;
    const allowed = types(option);
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    if (
      allowed.length > 0 &&
      !allowed.some((type) => type === actual || (type === 'integer' && actual === 'number'))
    )
      return false;
    if (actual === 'object' && Array.isArray(option.required))
      return option.required.every((name: string) => name in (value as object));
    return true;
  });
  return Math.max(index, 0);
}

/** The value without the `undefined` an empty optional field leaves behind. */
export function pruned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruned);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, pruned(item)]),
  );
}
