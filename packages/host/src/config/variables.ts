/**
 * VS Code's variables in a server entry: `${workspaceFolder}`, `${env:NAME}` and `${input:ID}`.
 * Anything else is an error: a value is never passed on with a variable left in it.
 * @module
 */
import { HostConfigError } from '../errors.js';
import { isRecord } from './fields.js';
import type { ConfigSource } from './types.js';

/** One expansion run: the source, the server being expanded, and the inputs answered so far. */
export interface VariableScope {
  readonly source: ConfigSource;
  readonly server: string;
  readonly document: Record<string, unknown>;
  /** `${input:ID}` answers, shared by every server of one parse so each input is asked once. */
  readonly answers: Map<string, Promise<string>>;
}

/** `${…}` with a bounded body, so matching stays linear. */
const VARIABLE = /\$\{([^{}]{1,200})\}/g;

/**
 * Expands the variables in every string of `value` (recursively); `field` is the path shown in
 * errors, e.g. `env.API_KEY` or `args[2]`.
 *
 * @example
 * ```ts
 * const entry = await expandVariables(scope, rawEntry, '');
 * ```
 */
export async function expandVariables(scope: VariableScope, value: unknown, field: string): Promise<unknown> {
  if (typeof value === 'string') {
    const values = new Map<string, string>();
    for (const [, name] of value.matchAll(VARIABLE)) {
      if (!values.has(name!)) values.set(name!, await resolveVariable(scope, name!, field));
    }
    return values.size === 0 ? value : value.replace(VARIABLE, (_whole, name: string) => values.get(name)!);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [index, item] of value.entries())
      out.push(await expandVariables(scope, item, `${field}[${index}]`));
    return out;
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = await expandVariables(scope, item, field === '' ? key : `${field}.${key}`);
    }
    return out;
  }
  return value;
}

async function resolveVariable(scope: VariableScope, name: string, field: string): Promise<string> {
  const { file, env } = scope.source;
  const where = `${file}: server "${scope.server}", "${field}"`;
  if (name === 'workspaceFolder') return scope.source.workspaceFolder;
  if (name.startsWith('env:')) {
    const found = env[name.slice(4)];
    if (found === undefined)
      throw new HostConfigError(`${where} uses \${${name}}, but ${name.slice(4)} is not set`);
    return found;
  }
  if (name.startsWith('input:')) return askInput(scope, name.slice(6), where);
  throw new HostConfigError(
    `${where} uses \${${name}}, which mcpkit cannot expand`,
    `Supported: \${workspaceFolder}, \${env:NAME} and \${input:ID}`,
  );
}

function askInput(scope: VariableScope, id: string, where: string): Promise<string> {
  const { file, ask } = scope.source;
  const inputs = Array.isArray(scope.document.inputs) ? scope.document.inputs : [];
  const input = inputs.find((item): item is Record<string, unknown> => isRecord(item) && item.id === id);
  if (!input)
    throw new HostConfigError(`${where} uses \${input:${id}}, but ${file} has no "inputs" entry "${id}"`);
  if (!ask) {
    throw new HostConfigError(
      `${where} uses \${input:${id}}, which must be asked of the user, and no one can be asked`,
      `Run on a terminal, or replace \${input:${id}} with \${env:NAME} and set NAME`,
    );
  }
  let answer = scope.answers.get(id);
  if (!answer) {
    const description = typeof input.description === 'string' ? input.description : id;
    answer = ask({ id, description, password: input.password === true });
    scope.answers.set(id, answer);
  }
  return answer;
}
