/**
 * undici dispatch handler of the HTTP client: one object per request that resolves with a
 * {@link DispatchedResponse} once the status and headers arrive and feeds the body chunks to its
 * {@link BodyQueue}. It replaces undici's `request` API, which built a `RequestHandler`, a Node
 * `Readable` body and its own abort wiring per call.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { BodyQueue } from './bodyQueue.js';
import { DispatchedResponse } from './dispatchedResponse.js';

/**
 * What the handler needs of `@mcpkit/client/http`'s `FetchAbort` (found in the fetch's init under
 * `Symbol.for('mcpkit.http.fetchAbort')`): whether and why it was aborted, and one callback on abort.
 *
 * @example
 * ```ts
 * declare const abort: FetchAbortLike;
 * abort.watch(() => console.log('aborted:', abort.reason));
 * ```
 */
export interface FetchAbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  watch(watcher: () => void): void;
  unwatch(watcher: () => void): void;
}

/**
 * Handles one dispatched request; `abort` (the transport's `FetchAbort`, told of an abort without an
 * `AbortSignal`) or else `signal` aborts it, before or after the response started.
 *
 * @example
 * ```ts
 * declare const dispatcher: Dispatcher;
 * const response = await new Promise<DispatchedResponse>((resolve, reject) => {
 *   const handler = new ResponseHandler(new URL('http://127.0.0.1:3000/mcp'), false, undefined, undefined, resolve, reject);
 *   dispatcher.dispatch({ origin: 'http://127.0.0.1:3000', path: '/mcp', method: 'GET' }, handler);
 * });
 * ```
 */
export class ResponseHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private body: BodyQueue | undefined;
  private finished = false;
  private readonly onAbort = () => this.abort();

  constructor(
    private readonly url: URL,
    private readonly head: boolean,
    private readonly fetchAbort: FetchAbortLike | undefined,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (response: DispatchedResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    if (fetchAbort) fetchAbort.watch(this.onAbort);
    else signal?.addEventListener('abort', this.onAbort);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.fetchAbort?.aborted || this.signal?.aborted) this.abort();
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    if (statusCode < 200) return; // an informational answer; the real one follows
    const streaming = String(headers['content-type'] ?? '').startsWith('text/event-stream');
    this.body = new BodyQueue(controller, streaming);
    this.resolve(
      new DispatchedResponse(this.url, statusCode, statusMessage ?? '', headers, this.body, this.head),
    );
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.finish();
    this.body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish();
    if (this.body) this.body.fail(error);
    else this.reject(error);
  }

  private abort(): void {
    const reason = this.fetchAbort ? this.fetchAbort.reason : this.signal?.reason;
    const error =
      reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
    this.controller?.abort(error);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.fetchAbort) this.fetchAbort.unwatch(this.onAbort);
    else this.signal?.removeEventListener('abort', this.onAbort);
  }
}
