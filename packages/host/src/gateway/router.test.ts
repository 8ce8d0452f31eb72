/**
 * The router's count of calls in flight: one session's calls are a counter, a second session's
 * turn it into a map and back. What an upstream's request is routed to must not depend on which.
 */
import { describe, expect, it } from 'vitest';
import { CallRouter, type Downstream } from './router.js';

function downstream(key: string, elicits = true): Downstream {
  return {
    key,
    closed: false,
    clientCapabilities: elicits ? { elicitation: {} } : {},
    request: () => Promise.resolve({}) as never,
    notify: () => undefined,
    log: () => undefined,
  };
}

const elicits = (session: Downstream) => session.clientCapabilities.elicitation !== undefined;

describe('CallRouter calls in flight', () => {
  it('routes to the one session with calls, refuses while two have, and routes again once one is left', () => {
    const router = new CallRouter();
    const a = downstream('a');
    const b = downstream('b');
    expect(router.target('up')).toBeUndefined();
    expect(router.enter('up', a)).toBe(true);
    expect(router.enter('up', a)).toBe(true);
    expect(router.target('up')).toBe(a);
    expect(router.target('other')).toBeUndefined();
    router.enter('up', b);
    expect(router.target('up')).toBeUndefined();
    expect(() => router.sessionFor('up', 'elicitation/create', elicits)).toThrow(
      /2 clients have calls in flight/,
    );
    router.leave('up', a);
    expect(router.target('up')).toBeUndefined(); // a still has one call
    router.leave('up', a);
    expect(router.target('up')).toBe(b);
    router.leave('up', b);
    expect(router.target('up')).toBeUndefined();
    expect(() => router.sessionFor('up', 'elicitation/create', elicits)).toThrow(/outside any call/);
    // A leave that was never entered changes nothing.
    router.leave('up', a);
    router.enter('up', b);
    expect(router.sessionFor('up', 'elicitation/create', elicits)).toBe(b);
  });

  it('keeps servers apart, also when calls alternate between them', () => {
    const router = new CallRouter();
    const a = downstream('a');
    const b = downstream('b');
    router.enter('one', a);
    router.enter('two', b);
    router.enter('one', a);
    expect(router.target('one')).toBe(a);
    expect(router.target('two')).toBe(b);
    router.leave('two', b);
    expect(router.target('two')).toBeUndefined();
    expect(router.target('one')).toBe(a);
  });

  it('refuses with -32601 when none of several sessions declares the capability', () => {
    const router = new CallRouter();
    router.enter('up', downstream('a', false));
    router.enter('up', downstream('b', false));
    expect(() => router.sessionFor('up', 'elicitation/create', elicits)).toThrow(/do not support/);
  });

  it('counts nothing while it has an owner; begin() ends what it counted even if an owner came meanwhile', () => {
    const owner = downstream('owner');
    const a = downstream('a');
    const router = new CallRouter(owner);
    expect(router.enter('up', a)).toBe(false);
    expect(router.target('up')).toBe(owner);
    router.owner = undefined;
    expect(router.target('up')).toBeUndefined();
    const end = router.begin('up', a);
    expect(router.target('up')).toBe(a);
    router.owner = owner;
    end();
    router.owner = undefined;
    expect(router.target('up')).toBeUndefined();
  });
});

describe('CallRouter attribution by what a call was made on behalf of', () => {
  it('a question naming its call reaches that call’s caller while two sessions have calls in flight; one naming nothing is refused', () => {
    const router = new CallRouter();
    const [a, b] = [downstream('a'), downstream('b')];
    const [callOfA, callOfB, unknown] = [cancelSource(), cancelSource(), cancelSource()];
    router.enter('up', a);
    router.enter('up', b);
    router.attribute(callOfA, a);
    router.attribute(callOfB, b);
    expect(router.askedFor('up', {}, 'elicitation/create', elicits, callOfA)).toBe(a);
    expect(router.askedFor('up', {}, 'elicitation/create', elicits, callOfB)).toBe(b);
    expect(() => router.askedFor('up', {}, 'elicitation/create', elicits, unknown)).toThrow(
      /cannot tell whose it is/,
    );
    expect(() => router.askedFor('up', {}, 'elicitation/create', elicits)).toThrow(/cannot tell whose it is/);
    const plain = downstream('plain', false);
    const callOfPlain = cancelSource();
    router.attribute(callOfPlain, plain);
    expect(() => router.askedFor('up', {}, 'elicitation/create', elicits, callOfPlain)).toThrow(
      /does not support "elicitation\/create"/,
    );
  });
});

function cancelSource() {
  return {
    stopped: false,
    stopReason: undefined,
    addCancelListener: () => undefined,
    removeCancelListener: () => undefined,
  };
}
