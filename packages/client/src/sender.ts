/**
 * How a {@link Client} sends, past its middleware chain: a request or notification encoded for
 * the negotiated revision and checked against the server's capabilities, and under 2026-07-28
 * with the envelope, through its input rounds and its task (`era/requests.ts`).
 * @module
 */
import { CapabilityError, type IncomingRequest, type OutgoingRequestOptions } from '@mcpkit/core';
import { encodeOutgoingRequest, NOT_IN_REVISION } from '@mcpkit/core/internal';
import { ClientEnvelope } from './era/clientEnvelope.js';
import type { ModernVersion } from './era/modern.js';
import { ModernRequests } from './era/requests.js';
import type { HandlerRegistry } from './handlers.js';
import { missingCapability, refuseRemoved } from './outgoingChecks.js';
import type { SenderOwner } from './ports.js';
import type { ClientSession } from './session.js';

/**
 * The sending side of one client; made once per client, so sending makes no closure.
 *
 * @example
 * ```ts
 * const sender = new ClientSender(session, client, handlers, (request) => answer(request), report);
 * const tools = await sender.request('tools/list', {}, undefined);
 * ```
 */
export class ClientSender {
  /** The 2026-07-28 envelope of this client's requests (and the log level it carries). */
  readonly envelope: ClientEnvelope;
  /** 2026-07-28 requests: their envelope, input rounds and tasks. */
  private readonly modernRequests: ModernRequests;

  constructor(
    private readonly session: ClientSession,
    owner: SenderOwner,
    handlers: HandlerRegistry<unknown>,
    /** Answers an input request of the server the way the client does (through its middleware). */
    handle: (request: IncomingRequest) => unknown,
    onError: (error: Error) => void,
  ) {
    this.envelope = new ClientEnvelope(owner);
    this.modernRequests = new ModernRequests(
      session,
      owner.options,
      this.envelope,
      handlers,
      handle,
      onError,
    );
  }

  /** Sends a request: checked, encoded for the revision spoken, enveloped under 2026-07-28. */
  request<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    const session = this.session;
    try {
      const modern = session.modern;
      if (modern) refuseRemoved(modern, method);
      const codec = session.codec;
      const capabilities = session.result?.capabilities;
      const encoded = encodeOutgoingRequest(
        codec,
        method,
        params,
        missingCapability(codec, modern !== undefined, capabilities, method, params),
      );
      if (modern) return this.modernRequests.send<R>(modern, method, encoded, options);
      return session.live.request<R>(method, encoded, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Sends a notification; one the revision spoken lacks is dropped. */
  notify(method: string, params: Record<string, unknown> | undefined): void | Promise<void> {
    const session = this.session;
    // 2026-07-28 keeps no client notification but cancellation (roots/list_changed is gone).
    if (session.modern && method.startsWith('notifications/') && method !== 'notifications/cancelled') return;
    const encoded = session.codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION) return;
    return session.live.notify(method, encoded);
  }

  /** `server/discover`'s params under `version`: the envelope alone. */
  discoverParams(version: ModernVersion): Record<string, unknown> {
    return this.envelope.wrap(undefined, version);
  }

  /**
   * Under 2026-07-28 the server decides that a call becomes a task, and its answer is the only
   * place the task id goes: a task in the answer to a call its caller gave up on is cancelled
   * (issue 16; see `ModernRequests.cancelLateTask`).
   */
  cancelLateTask(result: Record<string, unknown>): void {
    const modern = this.session.modern;
    if (modern) this.modernRequests.cancelLateTask(modern, result);
  }

  /** Follows 2026-07-28 task `taskId` to its end; see `Client.followExtensionTask`. */
  followTask(taskId: string, options?: OutgoingRequestOptions): Promise<unknown> {
    const modern = this.session.modern;
    if (!modern)
      return Promise.reject(new CapabilityError('Only a 2026-07-28 client follows extension tasks'));
    return this.modernRequests.followTask(modern, taskId, options);
  }
}
