import { describe, expect, it } from 'vitest';
import { envelopeEntries, withEnvelope } from './modern.js';

const entries = envelopeEntries({
  version: '2026-07-28',
  capabilities: { sampling: {} },
  clientInfo: { name: 'host', version: '1.0.0' },
  logLevel: 'debug',
});

describe('withEnvelope', () => {
  it("merges the envelope after the caller's own _meta keys and leaves the caller's objects alone", () => {
    const own = { traceparent: '00-abc', 'io.modelcontextprotocol/logLevel': 'error' };
    const params = { name: 'echo', arguments: { text: 'hi' }, _meta: own };
    const sent = withEnvelope(params, entries, { requestState: 'opaque' });
    expect(sent).toEqual({
      name: 'echo',
      arguments: { text: 'hi' },
      requestState: 'opaque',
      _meta: {
        traceparent: '00-abc',
        // The client's own statement wins over a caller's stray copy of an envelope key.
        'io.modelcontextprotocol/logLevel': 'debug',
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
        'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1.0.0' },
      },
    });
    expect(params._meta).toBe(own);
    expect(Object.keys(own)).toEqual(['traceparent', 'io.modelcontextprotocol/logLevel']);
  });

  it('copies an own __proto__ key as data instead of setting the prototype', () => {
    const params = JSON.parse('{"__proto__":{"polluted":true},"_meta":{"__proto__":{"x":1}}}');
    const sent = withEnvelope(params, entries);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(sent._meta)).toBe(Object.prototype);
    expect(Object.hasOwn(sent, '__proto__')).toBe(true);
    expect(Object.hasOwn(sent._meta, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives a fresh _meta when there are no params', () => {
    const sent = withEnvelope(undefined, entries);
    expect(Object.keys(sent)).toEqual(['_meta']);
    expect(Object.isFrozen(sent._meta)).toBe(false);
    expect(Object.isFrozen(entries)).toBe(true);
  });
});
