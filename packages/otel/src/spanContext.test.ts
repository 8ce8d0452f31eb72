/**
 * `contextWithSpan` against the real API and SDK: it must behave as `trace.setSpan`'s context does
 * for every reader (the span, other keys from the parent) and every writer (set, delete).
 */
import { createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { contextWithSpan } from './spanContext.js';

const tracer = new BasicTracerProvider().getTracer('span-context-test');
const other = createContextKey('other value');

describe('contextWithSpan', () => {
  const parentSpan = tracer.startSpan('parent');
  const span = tracer.startSpan('child');
  const parent = trace.setSpan(ROOT_CONTEXT, parentSpan).setValue(other, 'from parent');
  const bound = contextWithSpan(parent, span);

  it('holds the span and reads other keys from its parent, leaving the parent as it was', () => {
    expect(trace.getSpan(bound)).toBe(span);
    expect(bound.getValue(other)).toBe('from parent');
    expect(trace.getSpan(parent)).toBe(parentSpan);
  });

  it('keeps the span and the parent values in a context derived by setting a value', () => {
    const key = createContextKey('added');
    const derived = bound.setValue(key, 1);
    expect(derived.getValue(key)).toBe(1);
    expect(trace.getSpan(derived)).toBe(span);
    expect(derived.getValue(other)).toBe('from parent');
    expect(bound.getValue(key)).toBeUndefined();
    expect(trace.getSpan(trace.setSpan(bound, parentSpan))).toBe(parentSpan);
  });

  it('drops only what is deleted', () => {
    expect(trace.getSpan(trace.deleteSpan(bound))).toBeUndefined();
    expect(trace.deleteSpan(bound).getValue(other)).toBe('from parent');
    const withoutOther = bound.deleteValue(other);
    expect(withoutOther.getValue(other)).toBeUndefined();
    expect(trace.getSpan(withoutOther)).toBe(span);
  });

  it('parents a span started in it', () => {
    const grandchild = tracer.startSpan('grandchild', {}, bound);
    expect(grandchild.spanContext().traceId).toBe(span.spanContext().traceId);
    expect((grandchild as unknown as ReadableSpan).parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });
});
