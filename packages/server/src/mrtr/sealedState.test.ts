import { McpError } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './digest.js';
import { checkRequestStateKeys } from './keyRing.js';
import { resolveLimits } from './limits.js';
import { RequestStateSealer, type RoundState, type StateBinding } from './sealedState.js';

const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(32);

const binding: StateBinding = { method: 'tools/call', paramsDigest: 'digest-1', principal: 'client:alice' };

function state(overrides: Partial<RoundState> = {}): RoundState {
  return {
    method: binding.method,
    paramsDigest: binding.paramsDigest,
    principal: binding.principal,
    rounds: 1,
    answers: new Map([['0', { digest: 'q0', response: { action: 'accept', content: { name: 'octocat' } } }]]),
    asked: new Map([['1', { method: 'roots/list', digest: 'q1' }]]),
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(-32602);
  return error as McpError;
}

function flipByte(sealed: string, index: number): string {
  const bytes = fromBase64Url(sealed)!;
  bytes[index]! ^= 0x01;
  return toBase64Url(bytes);
}

describe('RequestStateSealer', () => {
  it('opens what it sealed, with answers, questions, carry and an absent principal intact', async () => {
    const sealer = new RequestStateSealer([KEY_A]);
    const original = state({ carry: 'handler-own', principal: undefined });
    const opened = await sealer.open(await sealer.seal(original), { ...binding, principal: undefined });
    expect(opened).toEqual(original);
  });

  it('never shows the plaintext: the client cannot read the answers it carries', async () => {
    const sealed = await new RequestStateSealer([KEY_A]).seal(state());
    expect(new TextDecoder().decode(fromBase64Url(sealed))).not.toContain('octocat');
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('seals the same state differently each time (random IV)', async () => {
    const sealer = new RequestStateSealer([KEY_A]);
    expect(await sealer.seal(state())).not.toBe(await sealer.seal(state()));
  });

  it('rejects a state with any single byte flipped: version, key id, IV, ciphertext, tag', async () => {
    const sealer = new RequestStateSealer([KEY_A]);
    const sealed = await sealer.seal(state());
    const length = fromBase64Url(sealed)!.byteLength;
    for (const index of [0, 5, 16, 17, Math.floor(length / 2), length - 1]) {
      const error = await rejection(sealer.open(flipByte(sealed, index), binding));
      expect(error.message).toBe('requestState was not issued by this server or has been altered');
    }
    // The key id bytes: the state then names a key this server does not hold.
    const error = await rejection(sealer.open(flipByte(sealed, 2), binding));
    expect(error.message).toMatch(/sealed with a key this server does not hold/);
  });

  it('rejects a state sealed by another key', async () => {
    const sealed = await new RequestStateSealer([KEY_B]).seal(state());
    const error = await rejection(new RequestStateSealer([KEY_A]).open(sealed, binding));
    expect(error.message).toMatch(/key this server does not hold/);
  });

  it('rotates: the first key seals, every key opens', async () => {
    const old = new RequestStateSealer([KEY_A]);
    const rotated = new RequestStateSealer([KEY_B, KEY_A]);
    await expect(rotated.open(await old.seal(state()), binding)).resolves.toMatchObject({ rounds: 1 });
    await rejection(old.open(await rotated.seal(state()), binding));
  });

  it('rejects an expired state and accepts one within its lifetime', async () => {
    let now = 1_000_000;
    const sealer = new RequestStateSealer([KEY_A], { ttlMs: 60_000 }, () => now);
    const sealed = await sealer.seal(state());
    now += 60_000;
    await expect(sealer.open(sealed, binding)).resolves.toBeDefined();
    now += 1;
    const error = await rejection(sealer.open(sealed, binding));
    expect(error.message).toMatch(/expired/);
  });

  it('rejects a state presented on another method, other params or by another principal', async () => {
    const sealer = new RequestStateSealer([KEY_A]);
    const sealed = await sealer.seal(state());
    expect((await rejection(sealer.open(sealed, { ...binding, method: 'prompts/get' }))).message).toBe(
      'requestState belongs to a "tools/call" request, not to "prompts/get"',
    );
    expect((await rejection(sealer.open(sealed, { ...binding, paramsDigest: 'other' }))).message).toMatch(
      /other parameters/,
    );
    expect(
      (await rejection(sealer.open(sealed, { ...binding, principal: 'client:mallory' }))).message,
    ).toMatch(/another principal/);
    expect((await rejection(sealer.open(sealed, { ...binding, principal: undefined }))).message).toMatch(
      /another principal/,
    );
  });

  it('rejects a state over the size limit before decoding it, and refuses to seal one', async () => {
    const sealer = new RequestStateSealer([KEY_A], { maxStateBytes: 512 });
    const error = await rejection(sealer.open('A'.repeat(513), binding));
    expect(error.message).toBe('requestState is larger than the limit of 512 bytes');
    const big = state({ answers: new Map([['0', { digest: 'q0', response: { text: 'x'.repeat(600) } }]]) });
    expect((await rejection(sealer.seal(big))).message).toMatch(
      /exceed the request state limit of 512 bytes/,
    );
  });

  it('rejects a state that has gone through more rounds than the limit', async () => {
    const generous = new RequestStateSealer([KEY_A], { maxRounds: 20 });
    const strict = new RequestStateSealer([KEY_A], { maxRounds: 8 });
    await expect(strict.open(await generous.seal(state({ rounds: 8 })), binding)).resolves.toBeDefined();
    const error = await rejection(strict.open(await generous.seal(state({ rounds: 9 })), binding));
    expect(error.message).toBe('requestState exceeds the limit of 8 input rounds');
  });

  it('rejects values that are not sealed states at all', async () => {
    const sealer = new RequestStateSealer([KEY_A]);
    expect((await rejection(sealer.open(42, binding))).message).toBe('requestState must be a string');
    for (const junk of ['', 'not base64!', 'eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0', 'A']) {
      expect((await rejection(sealer.open(junk, binding))).message).toMatch(/not issued by this server/);
    }
  });

  it('shares one random key per process when no keys are given', async () => {
    const sealed = await new RequestStateSealer().seal(state());
    await expect(new RequestStateSealer().open(sealed, binding)).resolves.toBeDefined();
    await rejection(new RequestStateSealer([KEY_A]).open(sealed, binding));
  });
});

describe('requestStateKeys and limits options', () => {
  it('refuses short or missing secrets without echoing them', () => {
    expect(() => checkRequestStateKeys([])).toThrow(/non-empty array/);
    expect(() => checkRequestStateKeys(['short-secret'])).toThrow(
      'requestStateKeys[0] must be a string or Uint8Array of at least 32 bytes',
    );
    expect(() => checkRequestStateKeys([KEY_A, new Uint8Array(31)])).toThrow(/requestStateKeys\[1\]/);
    expect(checkRequestStateKeys([KEY_A, new Uint8Array(32)])).toHaveLength(2);
  });

  it('fills defaults and refuses limits that are not positive integers', () => {
    expect(resolveLimits()).toEqual({
      maxRounds: 8,
      maxStateBytes: 65536,
      ttlMs: 600000,
      maxInputRequests: 16,
    });
    expect(resolveLimits({ maxRounds: 3, ttlMs: undefined }).maxRounds).toBe(3);
    expect(() => resolveLimits({ ttlMs: 0 })).toThrow('requestStateLimits.ttlMs must be a positive integer');
    expect(() => resolveLimits({ maxRounds: 1.5 })).toThrow(/maxRounds/);
  });
});
