import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import { ScriptedTransport } from '../../../../tests/support/scriptedTransport.js';
import { Connection } from '../index.js';

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const validRequest = fc.record({
  jsonrpc: fc.constant('2.0'),
  id,
  method: fc.constantFrom('echo', 'throw', 'reject', 'slow', 'unknown'),
  params: fc.option(fc.dictionary(fc.string({ maxLength: 5 }), anyJson, { maxKeys: 3 }), { nil: undefined }),
});
const validNotification = fc.record({
  jsonrpc: fc.constant('2.0'),
  method: fc.constantFrom('notifications/x', 'notifications/cancelled', 'notifications/progress'),
  params: fc.option(fc.dictionary(fc.string({ maxLength: 5 }), anyJson, { maxKeys: 3 }), { nil: undefined }),
});
/** A valid frame with one field replaced, removed or retyped. */
const mutated = fc
  .tuple(
    fc.oneof(validRequest, validNotification),
    fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error'),
    fc.oneof(anyJson, fc.constant(undefined)),
  )
  .map(([frame, key, value]) => {
    const copy: Record<string, unknown> = { ...frame };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  });
const frame = fc.oneof(validRequest, validNotification, mutated, anyJson);

function handler(method: string): unknown {
  switch (method) {
    case 'echo':
      return { ok: true };
    case 'throw':
      throw new Error('internal detail');
    case 'reject':
      return Promise.reject(new Error('async internal detail'));
    case 'slow':
      return new Promise((resolve) => setTimeout(() => resolve({ slow: true }), 1));
    default:
      throw Object.assign(new Error('nope'), {});
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('property: random and mutated frames against a live engine', () => {
  it('never throws, never answers a notification, answers every request once, keeps serving', async () => {
    await assertProperty(
      fc.asyncProperty(fc.array(frame, { maxLength: 25 }), async (frames) => {
        const transport = new ScriptedTransport();
        const connection = new Connection(transport, {
          onRequest: (request) => handler(request.method),
          onNotification: () => {},
        });
        connection.start();
        // Ids must be unique among requests in flight, so give each valid request a fresh one.
        const expected = new Set<string | number>();
        let counter = 0;
        for (const value of frames) {
          let message = value;
          const isRequest =
            typeof value === 'object' &&
            value !== null &&
            !Array.isArray(value) &&
            (value as any).jsonrpc === '2.0' &&
            typeof (value as any).method === 'string' &&
            'id' in value;
          if (isRequest) {
            const validId = typeof (value as any).id === 'string' || Number.isSafeInteger((value as any).id);
            const params = (value as any).params;
            const validParams =
              params === undefined ||
              (typeof params === 'object' && params !== null && !Array.isArray(params));
            if (validId && validParams) {
              message = { ...(value as object), id: `req-${counter++}` };
              expected.add((message as any).id);
            }
          }
          expect(() => transport.sink.message(message)).not.toThrow();
        }
        await settle();
        const answers = transport.sent.flat();
        // Every answer is a response, never a notification or request.
        for (const answer of answers) {
          expect(answer).not.toHaveProperty('method');
          expect(JSON.stringify(answer)).not.toContain('internal detail');
        }
        // Every valid request got exactly one response.
        const counts = new Map<unknown, number>();
        for (const answer of answers) counts.set(answer.id, (counts.get(answer.id) ?? 0) + 1);
        for (const requestId of expected) expect(counts.get(requestId)).toBe(1);
        // And the engine still serves.
        transport.sent.length = 0;
        transport.sink.message({ jsonrpc: '2.0', id: 'after', method: 'echo' });
        expect(transport.sent).toEqual([{ jsonrpc: '2.0', id: 'after', result: { ok: true } }]);
      }),
      { numRuns: 200 },
    );
  });

  it('answers every invalid request frame with -32600 and an id only when one could be read', () => {
    assertProperty(
      fc.property(mutated, (value) => {
        const transport = new ScriptedTransport();
        const connection = new Connection(transport, { onRequest: () => ({}), onNotification: () => {} });
        connection.start();
        transport.sink.message(value);
        for (const answer of transport.sent) {
          if (answer.error) {
            expect([-32600, -32601, -32603]).toContain(answer.error.code);
            if ('id' in answer) expect(answer.id === null).toBe(false);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
