/**
 * The `alloc` and `alloc-noretain` observers of bench/lib/observe.mjs (issue 15's control): per
 * request, about the object graph the OpenTelemetry SDK builds for a span and a histogram record
 * (a span-like object of 15 fields, a copy of the attributes, two [sec, nsec] times, two random
 * hex ids, the metrics SDK's attribute hash string), and no CPU spin beyond building it. `alloc`
 * retains the ended spans in a buffer dropped at 512, as the batch span processor does with a
 * dropping exporter; `alloc-noretain` makes the same garbage and keeps none of it.
 * @module
 */

const HEX = '0123456789abcdef';
const BATCH = 512;

/** A random lowercase hex string of `length` characters, as the SDK's id generator makes. */
function hexId(length) {
  let id = '';
  for (let i = 0; i < length; i++) id += HEX[(Math.random() * 16) | 0];
  return id;
}

/** [seconds, nanoseconds] of now, as the SDK's `hrTime`. */
function hrTime() {
  const ms = performance.timeOrigin + performance.now();
  return [Math.trunc(ms / 1000), Math.round((ms % 1000) * 1e6)];
}

/**
 * The observer; `retain` keeps ended spans until 512 have ended.
 * @param {boolean} retain
 * @returns {import('@mcpkit/core').Observer}
 */
export function allocObserver(retain) {
  let buffer = [];
  let sink = 0; // keeps the hash string observable, so it is built
  return {
    requestStarted: (request) => {
      const attributes = {
        'mcp.method.name': request.method,
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': request.target ?? '',
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
      };
      attributes['jsonrpc.request.id'] = String(request.id);
      attributes['mcp.session.id'] = request.session?.id ?? '';
      request.state = {
        name: `${request.method} ${request.target ?? ''}`,
        kind: 1,
        spanContext: { traceId: hexId(32), spanId: hexId(16), traceFlags: 1, isRemote: false },
        parentSpanContext: undefined,
        attributes: { ...attributes },
        links: [],
        events: [],
        startTime: hrTime(),
        endTime: [0, 0],
        status: { code: 0 },
        ended: false,
        duration: [-1, -1],
        resource: undefined,
        instrumentationScope: undefined,
        droppedAttributesCount: 0,
      };
    },
    requestFinished: (request) => {
      const span = request.state;
      if (span === undefined) return;
      span.endTime = hrTime();
      span.duration = [span.endTime[0] - span.startTime[0], span.endTime[1] - span.startTime[1]];
      span.ended = true;
      // The metrics SDK's `hashAttributes`: sorted pairs, stringified, per record.
      const metric = { ...span.attributes };
      delete metric['jsonrpc.request.id'];
      delete metric['mcp.session.id'];
      sink ^= JSON.stringify(Object.entries(metric).sort()).length;
      if (!retain) return;
      buffer.push(span);
      if (buffer.length >= BATCH) buffer = [];
    },
    get sink() {
      return sink;
    },
  };
}
