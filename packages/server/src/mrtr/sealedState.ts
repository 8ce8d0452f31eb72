/**
 * Request state for input-required rounds (2026-07-28, MRTR): what a server needs to resume a
 * request, sealed with AES-256-GCM so the client that carries it can neither read nor alter it.
 *
 * Format: base64url of `version (1 byte) | key id (4) | IV (12) | ciphertext and tag`, with the
 * version and key id as additional authenticated data. The plaintext is JSON: issue and expiry
 * times, the method, a digest of the original params, the principal, the round count, the answers
 * so far (each with the digest of the question it answers), the questions of the last round, and
 * the handler's own state if it returned an input-required result itself.
 * @module
 */
import type { McpError } from '@mcpkit/core';
import { invalidParams } from '../params.js';
import { fromBase64Url, toBase64Url } from './digest.js';
import {
  checkRequestStateKeys,
  importKeyRing,
  processRequestStateSecret,
  type RequestStateKey,
  type SealingKey,
} from './keyRing.js';
import { type InputRoundLimits, resolveLimits } from './limits.js';

/** One recorded answer: the digest of the question and the client's response to it. */
export interface RecordedAnswer {
  readonly digest: string;
  readonly response: unknown;
}

/** A question of the last round: its method (which kind of answer it expects) and its digest. */
export interface AskedQuestion {
  readonly method: string;
  readonly digest: string;
}

/** What a sealed state says about the request it belongs to and the rounds so far. */
export interface RoundState {
  readonly method: string;
  readonly paramsDigest: string;
  readonly principal: string | undefined;
  /** Input-required results issued so far for this request (1 after the first). */
  readonly rounds: number;
  readonly answers: ReadonlyMap<string, RecordedAnswer>;
  /** The questions of the last round, by key. */
  readonly asked: ReadonlyMap<string, AskedQuestion>;
  /** The state a handler put in an input-required result of its own, returned to it on retry. */
  readonly carry?: string;
}

/** What the request presenting a state must match. */
export interface StateBinding {
  readonly method: string;
  readonly paramsDigest: string;
  readonly principal: string | undefined;
}

const VERSION = 1;
const HEADER = 5;
const IV = 12;
const TAG = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Seals and opens request state with a key ring (the first key seals, every key opens). Built once
 * per server; keys are imported on first use.
 *
 * @example
 * ```ts
 * const sealer = new RequestStateSealer([process.env.MCP_STATE_KEY!]);
 * const sealed = await sealer.seal(state);
 * const again = await sealer.open(sealed, { method: 'tools/call', paramsDigest, principal: undefined });
 * ```
 */
export class RequestStateSealer {
  readonly limits: InputRoundLimits;
  readonly #secrets: Uint8Array[];
  #ring: Promise<SealingKey[]> | undefined;

  readonly #now: () => number;
  constructor(
    keys?: readonly RequestStateKey[],
    limits?: Partial<InputRoundLimits>,
    /** The clock, in ms since the epoch (replaceable so tests can issue already-expired states). */
    now: () => number = Date.now,
  ) {
    this.#now = now;
    this.#secrets = keys === undefined ? [processRequestStateSecret()] : checkRequestStateKeys(keys);
    this.limits = resolveLimits(limits);
  }

  #keys(): Promise<SealingKey[]> {
    if (!this.#ring) this.#ring = importKeyRing(this.#secrets);
    return this.#ring;
  }

  /**
   * Seals `state` with the first key, valid for `ttlMs` from now. Throws `-32602` when the sealed
   * state would exceed `maxStateBytes` (the answers the client sent are too large to carry).
   */
  async seal(state: RoundState): Promise<string> {
    const [first] = await this.#keys();
    const issued = this.#now();
    const plain = encoder.encode(JSON.stringify(toPayload(state, issued, issued + this.limits.ttlMs)));
    const header = new Uint8Array(HEADER);
    header[0] = VERSION;
    header.set(first!.id, 1);
    const iv = crypto.getRandomValues(new Uint8Array(IV));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: header },
        first!.key as CryptoKey,
        plain,
      ),
    );
    const out = new Uint8Array(HEADER + IV + sealed.byteLength);
    out.set(header, 0);
    out.set(iv, HEADER);
    out.set(sealed, HEADER + IV);
    const text = toBase64Url(out);
    if (text.length > this.limits.maxStateBytes) {
      throw invalidParams(
        `The answers collected so far exceed the request state limit of ${this.limits.maxStateBytes} bytes`,
      );
    }
    return text;
  }

  /**
   * Opens a state the client sent back and checks it belongs to `binding`. Every failure is a
   * `-32602` McpError with a message that says which check failed (never the state's contents).
   */
  async open(sealed: unknown, binding: StateBinding): Promise<RoundState> {
    if (typeof sealed !== 'string') throw invalidParams('requestState must be a string');
    if (sealed.length > this.limits.maxStateBytes) {
      throw invalidParams(`requestState is larger than the limit of ${this.limits.maxStateBytes} bytes`);
    }
    const bytes = fromBase64Url(sealed);
    if (!bytes || bytes.byteLength < HEADER + IV + TAG || bytes[0] !== VERSION) throw altered();
    const key = (await this.#keys()).find((candidate) => sameId(candidate.id, bytes));
    if (!key) {
      throw invalidParams(
        'requestState was sealed with a key this server does not hold (rotated out, or another server)',
      );
    }
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: bytes.subarray(HEADER, HEADER + IV),
          additionalData: bytes.subarray(0, HEADER),
        },
        key.key as CryptoKey,
        bytes.subarray(HEADER + IV),
      );
    } catch {
      throw altered();
    }
    return this.#check(fromPayload(JSON.parse(decoder.decode(plain))), binding);
  }

  #check(opened: { state: RoundState; expires: number }, binding: StateBinding): RoundState {
    const { state, expires } = opened;
    if (this.#now() > expires) {
      throw invalidParams('requestState has expired; send the original request again without requestState');
    }
    if (state.method !== binding.method) {
      throw invalidParams(`requestState belongs to a "${state.method}" request, not to "${binding.method}"`);
    }
    if (state.paramsDigest !== binding.paramsDigest) {
      throw invalidParams('requestState belongs to a request with other parameters');
    }
    if (state.principal !== binding.principal)
      throw invalidParams('requestState was issued to another principal');
    if (state.rounds > this.limits.maxRounds) {
      throw invalidParams(`requestState exceeds the limit of ${this.limits.maxRounds} input rounds`);
    }
    return state;
  }
}

function sameId(id: Uint8Array, bytes: Uint8Array): boolean {
  for (let i = 0; i < id.byteLength; i++) if (id[i] !== bytes[1 + i]) return false;
  return true;
}

function altered(): McpError {
  return invalidParams('requestState was not issued by this server or has been altered');
}

// Maps travel as entry lists: no object keys, so no "__proto__" surprises.
interface Payload {
  iat: number;
  exp: number;
  m: string;
  h: string;
  p?: string;
  r: number;
  a: Array<[key: string, digest: string, response: unknown]>;
  q: Array<[key: string, digest: string, method: string]>;
  c?: string;
}

function toPayload(state: RoundState, issued: number, expires: number): Payload {
  const payload: Payload = {
    iat: issued,
    exp: expires,
    m: state.method,
    h: state.paramsDigest,
    r: state.rounds,
    a: [...state.answers].map(([key, answer]) => [key, answer.digest, answer.response]),
    q: [...state.asked].map(([key, question]) => [key, question.digest, question.method]),
  };
  if (state.principal !== undefined) payload.p = state.principal;
  if (state.carry !== undefined) payload.c = state.carry;
  return payload;
}

function fromPayload(payload: Payload): { state: RoundState; expires: number } {
  const state: RoundState = {
    method: payload.m,
    paramsDigest: payload.h,
    principal: payload.p,
    rounds: payload.r,
    answers: new Map(payload.a.map(([key, digest, response]) => [key, { digest, response }])),
    asked: new Map(payload.q.map(([key, digest, method]) => [key, { digest, method }])),
    ...(payload.c === undefined ? {} : { carry: payload.c }),
  };
  return { state, expires: payload.exp };
}
