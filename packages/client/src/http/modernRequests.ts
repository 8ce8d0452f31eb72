/**
 * The 2026-07-28 requests a Streamable HTTP client transport has in flight: the fetch of each
 * (aborting it is how HTTP cancels: no notification is POSTed), their request metadata headers,
 * and the `x-mcp-header` annotations learnt from the `tools/list` results among their answers.
 * @module
 */
import type { JsonRpcMessage, MessageSink, RequestId } from '@mcpkit/core';
import { HttpTransportError } from './errors.js';
import { POST_ACCEPT } from './link.js';
import { forEachResponse } from './messages.js';
import { addStandardHeaders, ToolHeaders } from './modernHeaders.js';

/**
 * The 2026-07-28 requests in flight through one transport.
 *
 * @example
 * ```ts
 * const requests = new ModernRequests();
 * const headers = requests.begin(message, '2026-07-28', new AbortController());
 * ```
 */
export class ModernRequests {
  /** The `x-mcp-header` annotations of the tools listed through this transport. */
  private readonly toolHeaders = new ToolHeaders();
  /** Ids of `tools/list` requests in flight, whose results teach `toolHeaders`. */
  private readonly toolLists = new Set<RequestId>();
  /** The fetch of each request in flight. */
  private readonly posts = new Map<RequestId, AbortController>();
  /**
   * Requests whose JSON answer arrived and is being read. The server is done with them, so a
   * cancel no longer aborts the read: the answer still reaches the client, which cancels a task
   * it finds in an answer its caller gave up on (issue 30; the server cannot: it answered).
   */
  private readonly reading = new Set<RequestId>();

  /** True while a request is in flight (its answer settles it). */
  get active(): boolean {
    return this.posts.size > 0;
  }

  /** `message` is POSTed under `controller`: tracks it, and returns the POST's headers. */
  begin(message: JsonRpcMessage, version: string, controller: AbortController): Record<string, string> {
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined) this.posts.set(id, controller);
    if (id !== undefined && 'method' in message && message.method === 'tools/list') this.toolLists.add(id);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: POST_ACCEPT };
    addStandardHeaders(message, version, headers);
    if ('method' in message && message.method === 'tools/call') {
      this.toolHeaders.forCall(message.params?.name, message.params?.arguments, headers);
    }
    return headers;
  }

  /** The JSON answer to `message` arrived: it is read to its end, even if the client cancels. */
  arrived(message: JsonRpcMessage): void {
    if ('id' in message && message.id !== undefined) this.reading.add(message.id);
  }

  /** The POST of `message` is over and no stream took it on: no longer in flight. */
  end(message: JsonRpcMessage): void {
    if (!('id' in message) || message.id === undefined) return;
    this.posts.delete(message.id);
    this.reading.delete(message.id);
  }

  /** The client cancelled request `id`: aborts its fetch, unless its answer is being read. */
  cancel(id: RequestId): void {
    if (!this.reading.has(id)) this.posts.get(id)?.abort();
    this.posts.delete(id);
    this.toolLists.delete(id);
  }

  /**
   * A response arrived: its request is no longer in flight, and a `tools/list` result teaches the
   * `x-mcp-header` annotations (invalid tools are left out of it, reported to `sink`).
   */
  settle(value: unknown, sink: MessageSink | undefined): void {
    forEachResponse(value, (response) => {
      this.posts.delete(response.id);
      if (!this.toolLists.delete(response.id) || !('result' in response)) return;
      for (const refused of this.toolHeaders.learn(response.result)) {
        sink?.error(new HttpTransportError(`tools/list: ${refused} (x-mcp-header rules of 2026-07-28)`));
      }
    });
  }
}
