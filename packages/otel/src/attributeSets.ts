/**
 * The low-cardinality attribute sets and span names of the adapter, built once per method, item,
 * revision and transport instead of once per message: the metrics SDK hashes whatever object it
 * is given, but building it (and the span name) per call was the adapter's own share of the cost.
 * @module
 */
import type { ObservedMessage } from '@mcpkit/core';
import { type Attributes, type Link, SpanKind, type SpanOptions } from '@opentelemetry/api';
import { Attr } from './conventions.js';

/**
 * How many sets are kept. Tool and prompt names come from the peer, so a hostile one could name
 * endless tools: past the cap, sets are built per call and not kept.
 */
const MAX_SETS = 512;
/** How many failure variants (`error.type`) one set keeps. */
const MAX_FAILURES = 16;

/**
 * Shared by every span without links: the SDK copies the links it is given (`links.map`), so an
 * empty array of ours spares it making one more per span.
 */
const NO_LINKS = Object.freeze([]) as readonly Link[] as Link[];

/** One method and item on one revision and transport: its span name and attribute sets. */
export class AttributeSet {
  private failures: Map<string, Attributes> | undefined;
  /** `startSpan`'s options for a client span of this set, built once: none per request. */
  readonly clientSpan: SpanOptions;
  /** The same for a server span. */
  readonly serverSpan: SpanOptions;

  constructor(
    /** `{mcp.method.name} {target}` (target only where the conventions name it). */
    readonly spanName: string,
    /** The span's attributes at start (never changed: the SDK keeps it). */
    readonly attributes: Attributes,
    /**
     * The operation histograms' attributes: the span's less `gen_ai.operation.name`, which the
     * conventions list for spans only. One key fewer is less for the metrics SDK to hash on every
     * `record`. The same object as {@link attributes} when nothing differs.
     */
    readonly metricAttributes: Attributes,
  ) {
    this.clientSpan = Object.freeze({ kind: SpanKind.CLIENT, attributes, links: NO_LINKS });
    this.serverSpan = Object.freeze({ kind: SpanKind.SERVER, attributes, links: NO_LINKS });
  }

  /** {@link metricAttributes} plus `error.type` (and the JSON-RPC code, when there is one). */
  failed(errorType: string, errorCode: number | undefined): Attributes {
    const key = errorCode === undefined ? errorType : `${errorType}\u0000${errorCode}`;
    let set = this.failures?.get(key);
    if (set) return set;
    set = { ...this.metricAttributes, [Attr.errorType]: errorType };
    if (errorCode !== undefined) set[Attr.statusCode] = String(errorCode);
    Object.freeze(set);
    this.failures ??= new Map();
    if (this.failures.size < MAX_FAILURES) this.failures.set(key, set);
    return set;
  }
}

/** One level of the cache: a string (or `''` for none) to the next level. */
type Level<T> = Map<string, T>;

/**
 * The adapter's cache of {@link AttributeSet}s.
 *
 * Looked up level by level (method, item, revision, transport) with the strings as they come:
 * building one composite key per message cost a string concatenation and the hashing of the new
 * string on every request, about 0.2 µs, against some 40 ns for four lookups of strings whose
 * hashes V8 keeps.
 *
 * @example
 * ```ts
 * const sets = new AttributeSets(false);
 * declare const request: ObservedRequest;
 * histogram.record(0.002, sets.of(request, request.target).metricAttributes);
 * ```
 */
export class AttributeSets {
  private readonly sets: Level<Level<Level<Level<AttributeSet>>>> = new Map();
  private size = 0;

  constructor(private readonly resourceUriInSpanName: boolean) {}

  /** The set of `message`, whose item (tool, prompt, resource) is `target`. */
  of(message: ObservedMessage, target: string | undefined): AttributeSet {
    const method = message.method;
    const named =
      method === 'tools/call' ||
      method === 'prompts/get' ||
      (this.resourceUriInSpanName && method.startsWith('resources/'));
    const item = named ? target : undefined;
    const version = message.protocolVersion;
    const transport = message.session?.transport;
    const cached = this.sets
      .get(method)
      ?.get(item ?? '')
      ?.get(version ?? '')
      ?.get(transport ?? '');
    if (cached) return cached;
    const set = build(method, target, item, version, transport);
    if (this.size < MAX_SETS) {
      this.size++;
      const items = child(this.sets, method);
      child(child(items, item ?? ''), version ?? '').set(transport ?? '', set);
    }
    return set;
  }
}

/** The next level under `key`, made when missing. */
function child<T>(level: Level<Level<T>>, key: string): Level<T> {
  let next = level.get(key);
  if (!next) {
    next = new Map();
    level.set(key, next);
  }
  return next;
}

function build(
  method: string,
  target: string | undefined,
  item: string | undefined,
  version: string | undefined,
  transport: string | undefined,
): AttributeSet {
  const metric: Attributes = { [Attr.methodName]: method };
  if (version) metric[Attr.protocolVersion] = version;
  if (transport) metric[Attr.networkTransport] = transport;
  if (method === 'tools/call' && target) metric[Attr.toolName] = target;
  else if (method === 'prompts/get' && target) metric[Attr.promptName] = target;
  Object.freeze(metric);
  const span =
    method === 'tools/call' ? Object.freeze({ ...metric, [Attr.operationName]: 'execute_tool' }) : metric;
  return new AttributeSet(item ? `${method} ${item}` : method, span, metric);
}
