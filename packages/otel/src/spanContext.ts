/**
 * The context a message's span is active in, made in constant time.
 *
 * `trace.setSpan` returns the API's `BaseContext`, which copies its parent's map and makes three
 * closures: about 0.12 µs and five objects per request on the server's hot path (every request
 * gets one, for `runHandler`). This context holds the parent and the span; a lookup of any other
 * key goes to the parent, and setting or deleting a value on it (a child span, baggage) yields an
 * ordinary context of the API again, so no chain grows.
 * @module
 */
import { type Context, INVALID_SPAN_CONTEXT, type Span, trace } from '@opentelemetry/api';

/**
 * The API's key for the active span. The API does not export it: it is read once through the
 * public `trace.setSpan`, which sets it on the context it is given.
 */
const SPAN_KEY: symbol | undefined = probeSpanKey();

function probeSpanKey(): symbol | undefined {
  let key: symbol | undefined;
  const probe: Context = {
    getValue: () => undefined,
    setValue: (found) => {
      key = found;
      return probe;
    },
    deleteValue: () => probe,
  };
  trace.setSpan(probe, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return key;
}

/** `parent` with `span` active. */
class SpanBoundContext implements Context {
  constructor(
    private readonly parent: Context,
    private readonly key: symbol,
    private readonly span: Span,
  ) {}

  getValue(key: symbol): unknown {
    return key === this.key ? this.span : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return trace.setSpan(this.parent, this.span).setValue(key, value);
  }

  deleteValue(key: symbol): Context {
    return trace.setSpan(this.parent, this.span).deleteValue(key);
  }
}

/**
 * What `trace.setSpan(parent, span)` returns, for less: `parent` with `span` active.
 *
 * @example
 * ```ts
 * const active = contextWithSpan(context.active(), span);
 * context.with(active, () => trace.getActiveSpan() === span); // true
 * ```
 */
export function contextWithSpan(parent: Context, span: Span): Context {
  // Should a later API stop setting the key through `setValue`, fall back to its own way.
  return SPAN_KEY === undefined ? trace.setSpan(parent, span) : new SpanBoundContext(parent, SPAN_KEY, span);
}
