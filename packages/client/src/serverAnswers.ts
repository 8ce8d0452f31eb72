/**
 * The client's answers to the server's requests: `sampling/createMessage`, `elicitation/create`
 * (form and URL modes) and `roots/list`, each declaring the capability it implies, and, with the
 * `tasks` option, run as tasks when the server asks.
 * @module
 */
import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  ErrorCode,
  McpError,
} from '@mcpkit/core';
import type { Client } from './client.js';
import type { ClientRequestHandler } from './context.js';
import { applyElicitationDefaults } from './elicitationDefaults.js';
import type { McpClientOptions, RootsSource } from './mcpClientOptions.js';
import type { ClientTaskMethod, ClientTaskReceiver } from './taskReceiver.js';

/** What installing the answers needs of the client, its protected members passed in as functions. */
export interface AnswerSeat {
  readonly client: Client;
  /** The client's `implyCapabilities`. */
  imply(capabilities: ClientCapabilities): void;
  /** The client's `reportError`. */
  report(error: Error): void;
}

/** The roots the client serves; `setRoots` replaces `source`. */
export interface ServedRoots {
  source: RootsSource;
}

/**
 * Installs the handlers `options` gives on `seat.client`; returns the served roots when `roots`
 * was given.
 *
 * @example
 * ```ts
 * const roots = installAnswers({ client, imply, report }, { roots: [] }, undefined);
 * ```
 */
export function installAnswers(
  seat: AnswerSeat,
  options: McpClientOptions,
  receiver: ClientTaskReceiver | undefined,
): ServedRoots | undefined {
  const taskMethods: ClientTaskMethod[] = [];
  /** The handler of `method`, run as a task when the server asks and the `tasks` option is set. */
  const taskable = (method: ClientTaskMethod, handler: ClientRequestHandler): ClientRequestHandler => {
    if (!receiver) return handler;
    taskMethods.push(method);
    return receiver.taskable(method, handler);
  };
  installSampling(seat, options, taskable);
  installElicitation(seat, options.elicitation, taskable);
  const roots = options.roots === undefined ? undefined : installRoots(seat, options.roots);
  if (receiver && taskMethods.length > 0) {
    seat.imply(receiver.capabilitiesFor(taskMethods));
    receiver.install(seat.client, (error) => seat.report(error));
  }
  return roots;
}

type Taskable = (method: ClientTaskMethod, handler: ClientRequestHandler) => ClientRequestHandler;

function installSampling(seat: AnswerSeat, options: McpClientOptions, taskable: Taskable): void {
  const handler = options.sampling;
  if (!handler) return;
  const sampling: Record<string, unknown> = {};
  if (options.samplingTools) sampling.tools = {};
  if (options.samplingContext) sampling.context = {};
  seat.imply({ sampling });
  seat.client.setRequestHandler<string>(
    'sampling/createMessage',
    taskable('sampling/createMessage', (params, request) =>
      handler(params as CreateMessageRequestParams, request),
    ),
  );
}

function installElicitation(
  seat: AnswerSeat,
  handlers: McpClientOptions['elicitation'],
  taskable: Taskable,
): void {
  if (!handlers || (!handlers.form && !handlers.url)) return;
  const elicitation: Record<string, unknown> = {};
  if (handlers.form) elicitation.form = {};
  if (handlers.url) elicitation.url = {};
  seat.imply({ elicitation });
  const answer: ClientRequestHandler = async (params, request) => {
    if (params.mode === 'url') {
      if (!handlers.url)
        throw new McpError(ErrorCode.InvalidParams, 'This client does not support URL-mode elicitation');
      return handlers.url(params as ElicitRequestURLParams, request);
    }
    if (!handlers.form)
      throw new McpError(ErrorCode.InvalidParams, 'This client does not support form-mode elicitation');
    const form = params as ElicitRequestFormParams;
    const result = await handlers.form(form, request);
    return applyElicitationDefaults(form.requestedSchema, result);
  };
  seat.client.setRequestHandler<string>('elicitation/create', taskable('elicitation/create', answer));
}

function installRoots(seat: AnswerSeat, source: RootsSource): ServedRoots {
  const roots: ServedRoots = { source };
  seat.imply({ roots: { listChanged: true } });
  seat.client.setRequestHandler('roots/list', async (_params, request) => {
    const current = roots.source;
    const list = typeof current === 'function' ? await current(request) : (current ?? []);
    return { roots: [...list] };
  });
  return roots;
}
