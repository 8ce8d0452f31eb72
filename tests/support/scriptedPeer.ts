import { Connection, createInMemoryPair, type IncomingRequest, type Transport } from '@mcpkit/core';
import type { Cleanup } from './cleanups.js';

/** A started {@link scriptedPeer}. */
export interface ScriptedPeer {
  /** The client's end: hand it to `client.connect`. */
  readonly transport: Transport;
  /** Every request the peer received, in order. */
  readonly seen: IncomingRequest[];
  /** The peer's raw connection, to send requests or notifications of its own. */
  readonly connection: Connection;
}

/**
 * A bare JSON-RPC peer on a raw mcpkit `Connection`, for what no released server does on demand:
 * `answer` gets every request and its return value (or throw, or a promise that never settles) is
 * the answer. The pair serializes every message, as a real wire would. Its close is pushed onto
 * `cleanups`.
 *
 * @example
 * ```ts
 * const { transport, seen } = await scriptedPeer((request) =>
 *   request.method === 'initialize' ? INITIALIZE_RESULT : {}, cleanups);
 * await client.connect(transport);
 * expect(seen.map((request) => request.method)).toEqual(['initialize']);
 * ```
 */
export async function scriptedPeer(
  answer: (request: IncomingRequest) => unknown,
  cleanups: Cleanup[],
): Promise<ScriptedPeer> {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  const seen: IncomingRequest[] = [];
  const connection = new Connection(serverSide, {
    onRequest: (request) => {
      seen.push(request);
      return answer(request);
    },
    onNotification: () => {},
  });
  await connection.start();
  cleanups.push(() => connection.close());
  return { transport: clientSide, seen, connection };
}
