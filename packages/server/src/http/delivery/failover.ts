/**
 * Cluster fail-over on the delivery side: a call whose stream the shared event store can lease is
 * recorded with its stream, and a node that resumes the stream of a call whose node died runs the
 * call again here, onto the same stream, minus what the first run stored already.
 * @module
 */
import type { MessageExtra, RequestId } from '@mcpkit/core';
import type { ClassifiedBody } from '@mcpkit/core/internal';
import type { ClusterSupport } from './clusterSeam.js';
import type { OrphanedStream } from './eventStore.js';
import { Exchange, LogicalStream } from './exchange.js';
import type { SessionStreams } from './streams.js';

/** The session transport as fail-over sees it. */
export interface FailoverHost {
  readonly cluster: ClusterSupport | undefined;
  readonly closed: boolean;
  readonly exchanges: Map<RequestId, Exchange>;
  readonly streams: SessionStreams;
  deliver(body: ClassifiedBody, extra: MessageExtra): void;
}

/**
 * A request whose stream the store can lease is recorded with it, so that another node can run it
 * again if this one dies before answering.
 *
 * @example
 * ```ts
 * if (transport.cluster) keepRequest(transport, body); // before the body is delivered
 * ```
 */
export function keepRequest(transport: FailoverHost, body: ClassifiedBody): void {
  if (!transport.streams.store?.claimStream) return;
  const request = transport.cluster!.claimable(body);
  const exchange = request && transport.exchanges.get(request.id);
  if (!exchange || exchange.options.opensSession || exchange.request) return;
  exchange.request = request;
  if (exchange.stream) transport.streams.claim(exchange.stream, request);
}

/**
 * Runs again, here, the call of a stream whose node died (the store leased it to this node): its
 * new messages go to the same stream, minus what the first run stored already. It runs as the
 * client that resumed (`extra`: its verified caller, bound to the session like the first).
 *
 * @example
 * ```ts
 * const takeOver = (orphan: OrphanedStream) => rerun(transport, orphan, extra);
 * ```
 */
export function rerun(transport: FailoverHost, orphan: OrphanedStream, extra: MessageExtra): boolean {
  const cluster = transport.cluster;
  const body = cluster?.parse(orphan.request);
  const request = body && cluster!.claimable(body);
  if (!body || !request || transport.closed || transport.exchanges.has(request.id)) return false;
  const id = request.id;
  const exchange = new Exchange([id], { preferJson: false, opensSession: false, request: undefined });
  const streams = transport.streams;
  const stream = new LogicalStream(streams, orphan.streamId, exchange);
  stream.hasIds = true;
  const filter = cluster!.rerunFilter(id, orphan.earlier);
  stream.rerun = filter;
  if (filter.answered) {
    streams.end(stream); // it died after answering: the stream only lacked its end
    return true;
  }
  exchange.request = request; // claimed already, by the store's take-over
  exchange.stream = stream;
  transport.exchanges.set(id, exchange);
  streams.live.set(stream.id, stream);
  transport.deliver(body, extra);
  return true;
}
