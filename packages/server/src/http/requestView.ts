/**
 * The web `Request` seen through {@link RawHttpRequest}, the view the handlers work on, so one
 * implementation serves both the web-standard entry point and host adapters that skip `Request`.
 * @module
 */
import type { AuthInfo, MessageExtra } from '@mcpkit/core';
import { readCapped } from '@mcpkit/core/internal';
import type { AbortSignalLike, RawHttpRequest } from './rawHttp.js';

/**
 * Wraps a web `Request`.
 *
 * @example
 * ```ts
 * const view = webRequestView(request);
 * view.header('mcp-session-id');
 * ```
 */
export function webRequestView(request: Request): RawHttpRequest {
  return new WebRequestView(request);
}

/**
 * What the engine learns about a message that came over HTTP. The web `Request` is made only if a
 * handler asks for it (`ctx.httpRequest`): most never do, and on Node building one is costly.
 *
 * @example
 * ```ts
 * transport.deliver(body, new HttpMessageExtra(extra?.authInfo, view));
 * ```
 */
export class HttpMessageExtra implements MessageExtra {
  constructor(
    readonly authInfo: AuthInfo | undefined,
    private readonly view: RawHttpRequest,
    /** The size of the POST body in bytes (for an observer of message sizes). */
    readonly bodyBytes?: number,
  ) {}

  get httpRequest(): Request {
    return this.view.toRequest();
  }

  get remoteAddress(): string | undefined {
    return this.view.remoteAddress;
  }

  header(name: string): string | null {
    return this.view.header(name);
  }
}

class WebRequestView implements RawHttpRequest {
  constructor(private readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get url(): string {
    return this.request.url;
  }

  get signal(): AbortSignalLike {
    return this.request.signal;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  toRequest(): Request {
    return this.request;
  }

  /** Streams the body, stopping as soon as it passes `limit`: a client cannot make us buffer more. */
  async readBody(limit: number): Promise<Uint8Array | 'too-large' | 'aborted'> {
    const declared = this.request.headers.get('content-length');
    const body = this.request.body;
    if (declared !== null && Number(declared) > limit) {
      void body?.cancel().catch(() => {});
      return 'too-large';
    }
    if (!body) return new Uint8Array();
    try {
      return await readCapped(body, limit);
    } catch {
      return 'aborted';
    }
  }
}
