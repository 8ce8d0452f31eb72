/**
 * The two records of delivery: an *exchange* is one POST that carried requests, waiting for its
 * HTTP answer (a JSON body, or an SSE stream); a *logical stream* is an SSE stream as the client
 * sees it, with one id space, possibly carried by several connections over its life.
 * @module
 */
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '@mcpkit/core';
import type { AbortSignalLike } from '../rawHttp.js';
import type { Reply } from '../responses.js';
import type { RerunFilter } from './clusterSeam.js';
import type { SseConnection, SseConnectionOwner } from './sse.js';

/** How an exchange answers. */
export interface ExchangeOptions {
  /** Answer with JSON when the response is the first message for the request. */
  readonly preferJson: boolean;
  /** This exchange carries the `initialize` that creates the session. */
  readonly opensSession: boolean;
  /**
   * The HTTP request, whose signal tells that the client left while a JSON answer is undecided.
   * Read only then: an SSE answer learns it from its body being cancelled, and reading a web
   * `Request`'s signal has a cost on some runtimes (Deno prints a legacy-abort notice).
   */
  readonly request: { readonly signal: AbortSignalLike } | undefined;
  /** The HTTP status of a JSON answer (2026-07-28 gives some errors 400 or 404); default 200. */
  readonly statusOf?: (message: JsonRpcMessage | JsonRpcMessage[]) => number;
}

/** One POST that carried requests, until every one of them is answered. */
export class Exchange {
  remaining: number;
  stream: LogicalStream | undefined;
  settled = false;
  /** The request, kept to claim its stream for fail-over (cluster only). */
  request: JsonRpcRequest | undefined;
  readonly response: Promise<Reply>;
  private resolve!: (response: Reply) => void;
  private abortListener: (() => void) | undefined;
  private signal: AbortSignalLike | undefined;

  constructor(
    readonly ids: readonly RequestId[],
    readonly options: ExchangeOptions,
  ) {
    this.remaining = ids.length;
    this.response = new Promise<Reply>((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Listens for the client leaving while the answer is undecided (JSON may still come). */
  watch(onAbort: () => void): void {
    const signal = this.options.request?.signal;
    if (!signal) return;
    if (signal.aborted) {
      queueMicrotask(onAbort);
      return;
    }
    this.signal = signal;
    this.abortListener = onAbort;
    signal.addEventListener('abort', onAbort, { once: true });
  }

  settle(response: Reply): void {
    this.unwatch();
    if (this.settled) return;
    this.settled = true;
    this.resolve(response);
  }

  unwatch(): void {
    if (this.abortListener) this.signal!.removeEventListener('abort', this.abortListener);
    this.abortListener = undefined;
    this.signal = undefined;
  }
}

export const END = { kind: 'end' } as const;

/** Work queued on a stream, done strictly in order (the event store may answer asynchronously). */
export type StreamOp =
  /** Serialized message, or `''` for a priming event. */
  | string
  | typeof END
  | { readonly kind: 'detach'; readonly retry: number | undefined }
  | { readonly kind: 'resume'; readonly connection: SseConnection; readonly lastEventId: string };

/** Who hears that a stream lost its connection (the session's streams). */
export interface StreamListener {
  disconnected(stream: LogicalStream): void;
}

/** An SSE stream as the client sees it: one id space, possibly carried by several connections. */
export class LogicalStream implements SseConnectionOwner {
  connection: SseConnection | undefined;
  readonly ops: StreamOp[] = [];
  busy = false;
  /** False once the stream has ended (its exchange was answered, or the session closed). */
  live = true;
  /** A GET is replaying this stream; a second one must wait its turn. */
  resuming = false;
  /** An event with an id was produced: the client holds a position it can resume from. */
  hasIds = false;
  /** Standalone stream only: events produced while no GET was open. */
  backlog: string[] | undefined;
  /** A call run again after its node died: drops what the first run already stored. */
  rerun: RerunFilter | undefined;
  /** Shared standalone stream: this node holds it in the store (the session's one GET). */
  held = false;

  constructor(
    private readonly listener: StreamListener,
    readonly id: string,
    readonly exchange: Exchange | undefined,
  ) {}

  connectionLost(connection: SseConnection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.listener.disconnected(this);
  }
}
