/**
 * What the parts of the Streamable HTTP client transport share: the endpoint and its requester,
 * the transport's state and sink, the session id and negotiated version (and the headers that
 * carry them), and every fetch in flight so that `close()` can abort them all.
 * @module
 */
import type { JsonRpcMessage, MessageSink } from '@mcpkit/core';
import { HttpTransportError } from './errors.js';
import type { SsePacer } from './eventStream.js';
import { FetchAbort } from './fetchAbort.js';
import type { HttpRequester } from './requester.js';
import { discardBody } from './responseBody.js';

/** What a POST accepts: a JSON answer or an SSE stream. */
export const POST_ACCEPT = 'application/json, text/event-stream';
/** Visible ASCII only, as the spec requires of session ids. */
const SESSION_ID = /^[\x21-\x7e]+$/;

/**
 * The shared state of one Streamable HTTP client transport.
 *
 * @example
 * ```ts
 * const link = new HttpLink(new URL('http://127.0.0.1:3000/mcp'), new HttpRequester({}), DEFAULT_MAX_MESSAGE_SIZE);
 * const controller = link.track();
 * link.untrack(controller);
 * ```
 */
export class HttpLink {
  state: 'new' | 'open' | 'closed' = 'new';
  sink: MessageSink | undefined;
  session: string | undefined;
  protocolVersion: string | undefined;
  /** The client's `initialize`, replayed when the session expires. */
  initializeRequest: JsonRpcMessage | undefined;
  pacer: SsePacer | undefined;
  /** Controllers of every fetch in flight, so `close()` can abort them all. */
  readonly controllers = new Set<AbortController>();

  constructor(
    /** The MCP endpoint. */
    readonly url: URL,
    readonly requester: HttpRequester,
    readonly maxMessageSize: number,
  ) {}

  /** Adds the session and protocol version headers to `headers` (a fresh object by default). */
  sessionHeaders(session: string | undefined, headers: Record<string, string> = {}): Record<string, string> {
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  /** The headers of a 2025 POST: `initialize` starts a session and a negotiation, so it carries neither. */
  postHeaders(session: string | undefined, initializing: boolean): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: POST_ACCEPT };
    return initializing ? headers : this.sessionHeaders(session, headers);
  }

  /** Keeps the session id the server assigned in its answer to `initialize`, if any. */
  adoptSession(response: Response): void {
    const session = response.headers.get('mcp-session-id');
    if (session === null) return;
    if (!SESSION_ID.test(session)) {
      discardBody(response);
      throw new HttpTransportError('The server assigned a session id with characters outside visible ASCII');
    }
    this.session = session;
  }

  /** A controller for a new fetch, aborted by `close()`. */
  track(): AbortController {
    const controller = new FetchAbort();
    this.controllers.add(controller);
    return controller;
  }

  /** The fetch of `controller` is over. */
  untrack(controller: AbortController | undefined): void {
    if (controller) this.controllers.delete(controller);
  }
}
