/**
 * Which capability a peer must have declared before a method may be sent to it.
 *
 * One table for both directions, so the client's "may I send this?" check and the server's
 * "did I promise this?" check can never disagree.
 * @module
 */

type Capabilities = Record<string, unknown> | undefined;

function has(capabilities: Capabilities, ...path: string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

function missing(peer: string, capability: string, method: string): string {
  return `The ${peer} did not declare the "${capability}" capability, so "${method}" cannot be sent to it`;
}

/**
 * What a client request needs from the server's capabilities; `undefined` when it may be sent.
 *
 * @example
 * ```ts
 * missingServerCapability('tools/call', {}, { prompts: {} });
 * // 'The server did not declare the "tools" capability, so "tools/call" cannot be sent to it'
 * ```
 */
export function missingServerCapability(
  method: string,
  params: Record<string, unknown> | undefined,
  server: Capabilities,
): string | undefined {
  const need = (...path: string[]) =>
    has(server, ...path) ? undefined : missing('server', path.join('.'), method);
  switch (method) {
    case 'tools/list':
      return need('tools');
    case 'tools/call':
      return params?.task !== undefined ? need('tasks', 'requests', 'tools', 'call') : need('tools');
    case 'resources/list':
    case 'resources/templates/list':
    case 'resources/read':
      return need('resources');
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return need('resources', 'subscribe');
    case 'prompts/list':
    case 'prompts/get':
      return need('prompts');
    case 'completion/complete':
      return need('completions');
    case 'logging/setLevel':
      return need('logging');
    case 'tasks/list':
      return need('tasks', 'list');
    case 'tasks/cancel':
      return need('tasks', 'cancel');
    case 'tasks/get':
    case 'tasks/result':
      return need('tasks');
    default:
      return undefined;
  }
}

/**
 * What a server request needs from the client's capabilities; `undefined` when it may be sent.
 *
 * @example
 * ```ts
 * missingClientCapability('elicitation/create', { mode: 'url' }, { elicitation: {} });
 * // 'The client did not declare the "elicitation.url" capability, ...'
 * ```
 */
export function missingClientCapability(
  method: string,
  params: Record<string, unknown> | undefined,
  client: Capabilities,
): string | undefined {
  const need = (...path: string[]) =>
    has(client, ...path) ? undefined : missing('client', path.join('.'), method);
  switch (method) {
    case 'roots/list':
      return need('roots');
    case 'sampling/createMessage': {
      if (params?.task !== undefined) {
        const task = need('tasks', 'requests', 'sampling', 'createMessage');
        if (task) return task;
      }
      if (params?.tools !== undefined || params?.toolChoice !== undefined) return need('sampling', 'tools');
      const context = params?.includeContext;
      if (context === 'thisServer' || context === 'allServers') return need('sampling', 'context');
      return need('sampling');
    }
    case 'elicitation/create': {
      if (params?.task !== undefined) {
        const task = need('tasks', 'requests', 'elicitation', 'create');
        if (task) return task;
      }
      if (params?.mode === 'url') return need('elicitation', 'url');
      // An empty `elicitation: {}` means form mode (the 2025-06-18 shape).
      const elicitation = (client as Record<string, unknown> | undefined)?.elicitation;
      if (typeof elicitation === 'object' && elicitation !== null && Object.keys(elicitation).length === 0) {
        return undefined;
      }
      return need('elicitation', 'form');
    }
    case 'tasks/list':
      return need('tasks', 'list');
    case 'tasks/cancel':
      return need('tasks', 'cancel');
    case 'tasks/get':
    case 'tasks/result':
      return need('tasks');
    default:
      return undefined;
  }
}

/**
 * Merges capability objects (later ones win, nested objects are merged).
 *
 * @example
 * ```ts
 * mergeCapabilities({ tools: {} }, { tools: { listChanged: true } }); // { tools: { listChanged: true } }
 * ```
 */
export function mergeCapabilities<T extends Record<string, unknown>>(...sources: Array<T | undefined>): T {
  const out: Record<string, unknown> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [key, value] of Object.entries(source)) {
      const current = out[key];
      out[key] = isObject(current) && isObject(value) ? mergeCapabilities(current, value) : value;
    }
  }
  return out as T;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
