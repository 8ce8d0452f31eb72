/**
 * Which capability a peer must have declared before a method may be sent to it.
 *
 * One table for both directions, so the client's "may I send this?" check and the server's
 * "did I promise this?" check can never disagree.
 * @module
 */
import { isRecord } from '../shared.js';

type Capabilities = Record<string, unknown> | undefined;

type Path = readonly string[];

// Every capability path, made once: these checks run before every request a peer sends.
const TOOLS: Path = ['tools'];
const RESOURCES: Path = ['resources'];
const RESOURCES_SUBSCRIBE: Path = ['resources', 'subscribe'];
const PROMPTS: Path = ['prompts'];
const COMPLETIONS: Path = ['completions'];
const LOGGING: Path = ['logging'];
const TASKS: Path = ['tasks'];
const TASKS_LIST: Path = ['tasks', 'list'];
const TASKS_CANCEL: Path = ['tasks', 'cancel'];
const TASK_TOOLS_CALL: Path = ['tasks', 'requests', 'tools', 'call'];
const ROOTS: Path = ['roots'];
const SAMPLING: Path = ['sampling'];
const SAMPLING_TOOLS: Path = ['sampling', 'tools'];
const SAMPLING_CONTEXT: Path = ['sampling', 'context'];
const TASK_SAMPLING: Path = ['tasks', 'requests', 'sampling', 'createMessage'];
const ELICITATION_URL: Path = ['elicitation', 'url'];
const ELICITATION_FORM: Path = ['elicitation', 'form'];
const TASK_ELICITATION: Path = ['tasks', 'requests', 'elicitation', 'create'];

function has(capabilities: Capabilities, path: Path): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

/** `undefined` when `capabilities` has `path`, else why `method` cannot be sent to that peer. */
function need(peer: string, capabilities: Capabilities, method: string, path: Path): string | undefined {
  if (has(capabilities, path)) return undefined;
  return `The ${peer} did not declare the "${path.join('.')}" capability, so "${method}" cannot be sent to it`;
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
  switch (method) {
    case 'tools/list':
      return need('server', server, method, TOOLS);
    case 'tools/call':
      return need('server', server, method, params?.task !== undefined ? TASK_TOOLS_CALL : TOOLS);
    case 'resources/list':
    case 'resources/templates/list':
    case 'resources/read':
      return need('server', server, method, RESOURCES);
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return need('server', server, method, RESOURCES_SUBSCRIBE);
    case 'prompts/list':
    case 'prompts/get':
      return need('server', server, method, PROMPTS);
    case 'completion/complete':
      return need('server', server, method, COMPLETIONS);
    case 'logging/setLevel':
      return need('server', server, method, LOGGING);
    case 'tasks/list':
      return need('server', server, method, TASKS_LIST);
    case 'tasks/cancel':
      return need('server', server, method, TASKS_CANCEL);
    case 'tasks/get':
    case 'tasks/result':
      return need('server', server, method, TASKS);
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
  const check = (path: Path) => need('client', client, method, path);
  switch (method) {
    case 'roots/list':
      return check(ROOTS);
    case 'sampling/createMessage': {
      if (params?.task !== undefined) {
        const task = check(TASK_SAMPLING);
        if (task) return task;
      }
      if (params?.tools !== undefined || params?.toolChoice !== undefined) return check(SAMPLING_TOOLS);
      const context = params?.includeContext;
      if (context === 'thisServer' || context === 'allServers') return check(SAMPLING_CONTEXT);
      return check(SAMPLING);
    }
    case 'elicitation/create': {
      if (params?.task !== undefined) {
        const task = check(TASK_ELICITATION);
        if (task) return task;
      }
      if (params?.mode === 'url') return check(ELICITATION_URL);
      // An empty `elicitation: {}` means form mode (the 2025-06-18 shape).
      const elicitation = (client as Record<string, unknown> | undefined)?.elicitation;
      if (typeof elicitation === 'object' && elicitation !== null && Object.keys(elicitation).length === 0) {
        return undefined;
      }
      return check(ELICITATION_FORM);
    }
    case 'tasks/list':
      return check(TASKS_LIST);
    case 'tasks/cancel':
      return check(TASKS_CANCEL);
    case 'tasks/get':
    case 'tasks/result':
      return check(TASKS);
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
      out[key] = isRecord(current) && isRecord(value) ? mergeCapabilities(current, value) : value;
    }
  }
  return out as T;
}
