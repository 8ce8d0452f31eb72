/**
 * A linked pair of transports in one process, for tests and for embedding a server in a host.
 * @module
 */
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { MessageExtra, MessageSink, SendOptions, Transport } from './transport.js';

/** Options of {@link createInMemoryPair}. */
export interface InMemoryPairOptions {
  /**
   * Copy each message through JSON, as a real wire would. Off by default for speed; turn it on in
   * tests that must catch a side keeping references to messages it sent.
   */
  serialize?: boolean;
  /** Attached to every message the server side receives (e.g. to simulate an authenticated client). */
  extra?: MessageExtra;
}

/**
 * One end of an in-memory pair. Messages are delivered on a microtask, so a send never re-enters
 * the sender, and ordering is preserved. Create pairs with {@link createInMemoryPair}.
 *
 * @example
 * ```ts
 * const [clientSide, serverSide]: InMemoryTransport[] = createInMemoryPair();
 * ```
 */
export class InMemoryTransport implements Transport {
  #sink: MessageSink | undefined;
  #peer: InMemoryTransport | undefined;
  readonly #queue: unknown[] = [];
  #scheduled = false;
  #isClosed = false;

  readonly #serialize: boolean;
  readonly #extra: MessageExtra | undefined;
  constructor(serialize: boolean, extra: MessageExtra | undefined) {
    this.#serialize = serialize;
    this.#extra = extra;
  }

  /** @internal */
  link(peer: InMemoryTransport): void {
    this.#peer = peer;
  }

  start(sink: MessageSink): void {
    this.#sink = sink;
    if (this.#queue.length > 0) this.#schedule();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): void {
    if (this.#isClosed) throw new Error('The in-memory transport is closed');
    const peer = this.#peer;
    if (!peer || peer.#isClosed) throw new Error('The in-memory peer is closed');
    peer.#enqueue(this.#serialize ? JSON.parse(JSON.stringify(message)) : message);
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#sink?.closed();
    await this.#peer?.close();
  }

  #enqueue(message: unknown): void {
    this.#queue.push(message);
    if (this.#sink) this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(this.#drain);
  }

  // Delivers everything queued in one microtask: one callback per burst, not per message.
  readonly #drain = (): void => {
    this.#scheduled = false;
    const sink = this.#sink;
    if (!sink) return;
    const batch = this.#queue.splice(0);
    for (const message of batch) {
      if (this.#isClosed) return;
      sink.message(message, this.#extra);
    }
  };
}

/**
 * Creates two linked transports: what one sends, the other receives.
 *
 * @example
 * ```ts
 * const [clientTransport, serverTransport] = createInMemoryPair();
 * server.connect(serverTransport);
 * const client = new McpClient({ name: 'test', version: '1.0.0' });
 * await client.connect(clientTransport);
 * ```
 */
export function createInMemoryPair(
  options: InMemoryPairOptions = {},
): [InMemoryTransport, InMemoryTransport] {
  const serialize = options.serialize ?? false;
  const client = new InMemoryTransport(serialize, undefined);
  const server = new InMemoryTransport(serialize, options.extra);
  client.link(server);
  server.link(client);
  return [client, server];
}
