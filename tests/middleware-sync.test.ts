/**
 * `composeMiddlewareSync` (issue 21, cost): a chain of pass-through layers around a synchronous
 * terminal answers with the terminal's value itself, and every other shape of chain still answers
 * with a promise of the right value. The owner (the server's dispatch) relies on both.
 */
import {
  composeMiddleware,
  composeMiddlewareSync,
  type Middleware,
  type MiddlewareContextBase,
} from '@mcpkit/core';
import { describe, expect, it } from 'vitest';

type Ctx = MiddlewareContextBase;
const pass: Middleware<Ctx> = (_ctx, next) => next();

function context(method = 'tools/call'): Ctx {
  return { method, params: {}, isNotification: false, store: new Map() };
}

describe('composeMiddlewareSync', () => {
  it('answers with the terminal value itself through pass-through layers', () => {
    const answer = { ok: true };
    const run = composeMiddlewareSync([pass, pass, pass], () => answer);
    expect(run(context())).toBe(answer);
    expect(run(context())).toBe(answer);
  });

  it('answers synchronously with no layer at all, and keeps undefined as a value', () => {
    expect(composeMiddlewareSync([], () => 7)(context())).toBe(7);
    expect(composeMiddlewareSync([pass], () => undefined)(context())).toBeUndefined();
  });

  it('gives every layer a promise from next(), even when the owner skips awaiting it', async () => {
    const seen: unknown[] = [];
    const watch: Middleware<Ctx> = (_ctx, next) => {
      const inner = next();
      seen.push(inner);
      inner.then((value) => seen.push(value));
      return inner;
    };
    const run = composeMiddlewareSync([watch, pass], () => 'v');
    expect(run(context())).toBe('v');
    expect(seen[0]).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(seen[1]).toBe('v');
  });

  it('answers with a promise of the new value when a layer changes the result', async () => {
    const change: Middleware<Ctx> = async (_ctx, next) => `${await next()}!`;
    const run = composeMiddlewareSync([pass, change, pass], () => 'v');
    const answer = run(context());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe('v!');
  });

  it('answers with a promise when a layer short-circuits with a plain value', async () => {
    const run = composeMiddlewareSync([pass, () => 'short'], () => 'v');
    const answer = run(context());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe('short');
  });

  it('a terminal that throws is a rejection every layer can catch, never a synchronous answer', async () => {
    const failure = new Error('boom');
    const caught: unknown[] = [];
    const guard: Middleware<Ctx> = (_ctx, next) =>
      next().catch((error: unknown) => {
        caught.push(error);
        throw error;
      });
    const run = composeMiddlewareSync([guard, pass], () => {
      throw failure;
    });
    const answer = run(context());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toBe(failure);
    expect(caught).toEqual([failure]);
  });

  it('a layer that throws synchronously answers with a rejection', async () => {
    const failure = new Error('refused');
    const run = composeMiddlewareSync(
      [
        pass,
        () => {
          throw failure;
        },
      ],
      () => 'v',
    );
    await expect(run(context())).rejects.toBe(failure);
  });

  it('passes a promise or a thenable from the terminal on as a promise', async () => {
    const fromPromise = composeMiddlewareSync([pass], () => Promise.resolve('p'))(context());
    expect(fromPromise).toBeInstanceOf(Promise);
    await expect(fromPromise).resolves.toBe('p');
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a native promise is the case under test.
    const thenable = { then: (resolve: (value: string) => void) => resolve('t') };
    const fromThenable = composeMiddlewareSync([pass], () => thenable)(context());
    expect(fromThenable).toBeInstanceOf(Promise);
    await expect(fromThenable).resolves.toBe('t');
  });

  it('a chain run inside a terminal answers each caller with its own value', () => {
    const inner = composeMiddlewareSync([pass], (ctx) => `inner ${ctx.method}`);
    const outer = composeMiddlewareSync([pass, pass], (ctx) => {
      expect(inner(context('a'))).toBe('inner a');
      return `outer ${ctx.method}`;
    });
    expect(outer(context('b'))).toBe('outer b');
  });

  it('a chain run by a layer on the way out leaves the outer answer correct (as a promise)', async () => {
    const inner = composeMiddlewareSync([pass], () => 'inner');
    const sideRun: Middleware<Ctx> = (_ctx, next) => {
      const result = next();
      expect(inner(context())).toBe('inner');
      return result;
    };
    const answer = composeMiddlewareSync([sideRun], () => 'outer')(context());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe('outer');
  });

  it('a layer that calls next() twice and returns the first answer gets its value', async () => {
    let calls = 0;
    const twice: Middleware<Ctx> = (_ctx, next) => {
      const first = next();
      void next();
      return first;
    };
    const answer = composeMiddlewareSync([twice], () => ++calls)(context());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(1);
    expect(calls).toBe(2);
  });

  it('runs the layers in the same order as composeMiddleware, first added outermost', async () => {
    const order: string[] = [];
    const layer =
      (name: string): Middleware<Ctx> =>
      (_ctx, next) => {
        order.push(`in ${name}`);
        const result = next();
        order.push(`out ${name}`);
        return result;
      };
    const layers = [layer('a'), layer('b')];
    composeMiddlewareSync(layers, () => order.push('end'))(context());
    const syncOrder = order.splice(0);
    await composeMiddleware(layers, () => order.push('end'))(context());
    expect(syncOrder).toEqual(['in a', 'in b', 'end', 'out b', 'out a']);
    expect(order).toEqual(syncOrder);
  });
});
