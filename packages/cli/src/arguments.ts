/**
 * Tool and prompt arguments from `key=value` pairs: values are coerced by the tool's
 * `inputSchema`, then the whole object is validated, so a mistake is a clear usage error before
 * anything is sent.
 * @module
 */
import type { Prompt, Tool } from '@mcpkit/core';
import { formatIssues, isRecord } from '@mcpkit/core/internal';
import { defaultValidator } from '@mcpkit/schema';
import { CliError, usageError } from './errors.js';

type Schema = Record<string, unknown>;

/**
 * Splits `key=value` pairs. The value may itself contain `=`.
 *
 * @example
 * ```ts
 * splitPairs(['a=1', 'q=x=y']); // [['a', '1'], ['q', 'x=y']]
 * ```
 */
export function splitPairs(pairs: readonly string[]): Array<[string, string]> {
  return pairs.map((pair) => {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      throw usageError(`Arguments are written key=value; got "${pair}"`, 'Example: text=hello count=3');
    }
    return [pair.slice(0, equals), pair.slice(equals + 1)];
  });
}

/**
 * Parses `--args JSON`, which must be an object.
 *
 * @example
 * ```ts
 * parseArgsJson('{"a": 1}'); // { a: 1 }
 * ```
 */
export function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(
      `--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      `Example: --args '{"text":"hi"}'`,
    );
  }
  if (!isRecord(value)) throw usageError('--args must be a JSON object', `Example: --args '{"text":"hi"}'`);
  return value;
}

/**
 * Builds the arguments of a tool call from `--args` and `key=value` pairs (the pairs win), coerced
 * by the tool's `inputSchema` and validated against it.
 *
 * @throws {CliError} a usage error naming the argument and what it expected.
 * @example
 * ```ts
 * buildToolArguments(addTool, ['a=1', 'b=2'], undefined); // { a: 1, b: 2 }
 * ```
 */
export function buildToolArguments(
  tool: Tool,
  pairs: readonly string[],
  argsJson: string | undefined,
): Record<string, unknown> {
  const schema = (tool.inputSchema ?? {}) as Schema;
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const args = parseArgsJson(argsJson);
  const seen = new Set<string>();
  for (const [key, text] of splitPairs(pairs)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined && schema.additionalProperties === false) {
      throw usageError(`Tool "${tool.name}" has no argument "${key}"`, `Usage: ${toolUsage(tool)}`);
    }
    const value = withUsage(tool, () => coerceValue(key, text, property));
    if (seen.has(key)) {
      if (!typesOf(property).includes('array')) {
        throw usageError(`Argument "${key}" is given twice`, `Usage: ${toolUsage(tool)}`);
      }
      args[key] = [...asList(args[key]), ...asList(value)];
    } else {
      args[key] = value;
    }
    seen.add(key);
  }
  validateAgainst(tool, schema, args);
  return args;
}

function withUsage<T>(tool: Tool, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof CliError && error.hint === undefined)
      throw usageError(error.message, `Usage: ${toolUsage(tool)}`);
    throw error;
  }
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function validateAgainst(tool: Tool, schema: Schema, args: Record<string, unknown>): void {
  let check: ReturnType<ReturnType<typeof defaultValidator>['compile']>;
  try {
    check = defaultValidator().compile(schema);
  } catch {
    // A schema we cannot compile (an unknown dialect): the server still validates.
    return;
  }
  const verdict = check(args);
  if (verdict.valid) return;
  const issues = formatIssues(verdict.issues.slice(0, 5), 'inline', describePath);
  throw usageError(`Invalid arguments for tool "${tool.name}": ${issues}`, `Usage: ${toolUsage(tool)}`);
}

function describePath(pointer: string): string {
  if (pointer === '' || pointer === '/') return 'arguments';
  return pointer.slice(1).split('/').join('.');
}

/**
 * A one-line usage of a tool, from its `inputSchema`: required arguments first.
 *
 * @example
 * ```ts
 * toolUsage(addTool); // 'add a=<number> b=<number>'
 * ```
 */
export function toolUsage(tool: Tool): string {
  const schema = (tool.inputSchema ?? {}) as Schema;
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, property]) => {
    const text = `${name}=<${typesOf(property).join('|') || 'value'}>`;
    return required.has(name) ? text : `[${text}]`;
  });
  return [`mcpkit call TARGET ${tool.name}`, ...parts].join(' ');
}

/** The JSON types a schema allows, as far as can be told without resolving references. */
function typesOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const types = new Set<string>();
  const type = schema.type;
  if (typeof type === 'string') types.add(type);
  if (Array.isArray(type)) for (const item of type) if (typeof item === 'string') types.add(item);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches) for (const t of typesOf(branch as Schema)) types.add(t);
  }
  const literals = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  for (const literal of literals) types.add(jsonTypeOf(literal));
  return [...types];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The order in which interpretations are tried: the most specific first, string last. */
const TRY_ORDER = ['integer', 'number', 'boolean', 'null', 'array', 'object', 'string'] as const;

/**
 * Coerces one `key=value` text by the property's schema. Without a schema, JSON-looking text is
 * parsed and anything else stays a string.
 *
 * @example
 * ```ts
 * coerceValue('count', '3', { type: 'integer' }); // 3
 * coerceValue('tags', 'a,b', { type: 'array', items: { type: 'string' } }); // ['a', 'b']
 * ```
 */
export function coerceValue(key: string, text: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema);
  if (types.length === 0) return parseLoosely(text);
  for (const type of TRY_ORDER) {
    if (!types.includes(type)) continue;
    const value = interpret(key, text, type, schema!);
    if (value !== NO_MATCH) return value;
  }
  throw usageError(`Argument "${key}" expects ${describeTypes(types)}, got ${JSON.stringify(text)}`);
}

const NO_MATCH = Symbol('no match');

function interpret(key: string, text: string, type: string, schema: Schema): unknown {
  const trimmed = text.trim();
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(trimmed) ? Number(trimmed) : NO_MATCH;
    case 'number': {
      const value = Number(trimmed);
      return trimmed !== '' && Number.isFinite(value) ? value : NO_MATCH;
    }
    case 'boolean':
      return BOOLEAN_WORDS[trimmed.toLowerCase()] ?? NO_MATCH;
    case 'null':
      return trimmed === 'null' ? null : NO_MATCH;
    case 'array':
      return interpretArray(key, trimmed, schema);
    case 'object': {
      const value = parseJson(trimmed);
      return isRecord(value) ? value : NO_MATCH;
    }
    default:
      return text;
  }
}

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  '1': true,
  '0': false,
};

function interpretArray(key: string, text: string, schema: Schema): unknown {
  if (text.startsWith('[')) {
    const value = parseJson(text);
    return Array.isArray(value) ? value : NO_MATCH;
  }
  const items = isRecord(schema.items) ? (schema.items as Schema) : undefined;
  const parts = text === '' ? [] : text.split(',');
  return parts.map((part) => coerceValue(key, part, items));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NO_MATCH;
  }
}

/** Without a schema: numbers, booleans, null, arrays and objects when the text is exactly that. */
function parseLoosely(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[-\d[{"tfn]/.test(trimmed)) return text;
  const value = parseJson(trimmed);
  return value === NO_MATCH ? text : value;
}

function describeTypes(types: readonly string[]): string {
  const named = types.map((type) =>
    type === 'integer' ? 'an integer' : type === 'array' ? 'a list' : `a ${type}`,
  );
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

/**
 * Builds the arguments of a prompt (all strings) and checks them against its declared arguments.
 *
 * @example
 * ```ts
 * buildPromptArguments(greetPrompt, ['name=Ada'], undefined); // { name: 'Ada' }
 * ```
 */
export function buildPromptArguments(
  prompt: Prompt | undefined,
  pairs: readonly string[],
  argsJson: string | undefined,
): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseArgsJson(argsJson))) {
    args[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  for (const [key, value] of splitPairs(pairs)) args[key] = value;
  if (!prompt) return args;
  const declared = prompt.arguments ?? [];
  const names = declared.map((argument) => argument.name);
  for (const key of Object.keys(args)) {
    if (!names.includes(key)) {
      throw usageError(`Prompt "${prompt.name}" has no argument "${key}"`, `Usage: ${promptUsage(prompt)}`);
    }
  }
  const missing = declared.filter((argument) => argument.required && args[argument.name] === undefined);
  if (missing.length > 0) {
    const list = missing.map((argument) => `"${argument.name}"`).join(', ');
    throw usageError(`Prompt "${prompt.name}" needs ${list}`, `Usage: ${promptUsage(prompt)}`);
  }
  return args;
}

/**
 * A one-line usage of a prompt.
 *
 * @example
 * ```ts
 * promptUsage(greetPrompt); // 'mcpkit get TARGET greet name=<text> [style=<text>]'
 * ```
 */
export function promptUsage(prompt: Prompt): string {
  const parts = (prompt.arguments ?? []).map((argument) =>
    argument.required ? `${argument.name}=<text>` : `[${argument.name}=<text>]`,
  );
  return [`mcpkit get TARGET ${prompt.name}`, ...parts].join(' ');
}
