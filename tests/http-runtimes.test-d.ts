/**
 * Type-level tests, checked by `tsc -p tsconfig.json`: mcpkit's HTTP handlers are accepted as they
 * are by Bun, Deno and Workers (issue 12). Those runtimes' type packages are not installed (their
 * globals clash with the DOM and Node types), so the few declarations used are mirrored here from
 * bun-types (`Bun.serve`), Deno's `lib.deno.ns.d.ts` (`Deno.serve`) and
 * `@cloudflare/workers-types` (`ExportedHandler`), keeping the parameters that matter: each runtime
 * passes a second argument of its own. The `@ts-expect-error` line proves these mirrors are strict
 * enough to have caught the old two-argument handler.
 */
import { protect } from '@mcpkit/auth/server';
import { McpServer } from '@mcpkit/server';
import {
  createLegacySseHandler,
  createStreamableHttpHandler,
  type HttpRequestExtra,
} from '@mcpkit/server/http';
import { describe, expectTypeOf, it } from 'vitest';

/** bun-types: `Server` and `Serve.fetch(this: Server, request, server)`. */
interface BunServer {
  readonly port: number;
  readonly hostname: string;
  requestIP(request: Request): { address: string; family: string; port: number } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  serve(options: {
    port?: number;
    hostname?: string;
    idleTimeout?: number;
    fetch(this: BunServer, request: Request, server: BunServer): Response | Promise<Response>;
  }): BunServer;
};

/** Deno: `Deno.ServeHandler = (request, info: ServeHandlerInfo) => Response | Promise<Response>`. */
interface ServeHandlerInfo {
  readonly remoteAddr: {
    readonly transport: 'tcp' | 'udp';
    readonly hostname: string;
    readonly port: number;
  };
  readonly completed: Promise<void>;
}
type DenoServeHandler = (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>;
declare const Deno: {
  serve(handler: DenoServeHandler): { finished: Promise<void> };
  serve(
    options: { port?: number; hostname?: string },
    handler: DenoServeHandler,
  ): { finished: Promise<void> };
};

/** @cloudflare/workers-types: `ExportedHandler<Env>.fetch(request, env, ctx)`. */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}
interface ExportedHandler<Env = unknown> {
  fetch?: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
}

const handler = createStreamableHttpHandler(new McpServer({ name: 'types', version: '1.0.0' }));
const legacy = createLegacySseHandler(new McpServer({ name: 'types', version: '1.0.0' }));
const guarded = protect(handler, {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://auth.example.com'],
  verifier: async (token) => ({ token, scopes: [] }),
});

describe('runtimes take the handler as their fetch function', () => {
  it('Bun.serve({ fetch: handler })', () => {
    Bun.serve({ fetch: handler });
    Bun.serve({ port: 3000, hostname: '127.0.0.1', fetch: legacy });
    Bun.serve({ fetch: guarded });
  });

  it('Deno.serve(handler)', () => {
    Deno.serve(handler);
    Deno.serve({ port: 3000 }, legacy);
    Deno.serve(guarded);
  });

  it('export default { fetch: handler } (a Worker)', () => {
    const worker = { fetch: handler } satisfies ExportedHandler<{ authInfo: string }>;
    const protectedWorker = { fetch: guarded } satisfies ExportedHandler;
    expectTypeOf(worker.fetch).parameters.toEqualTypeOf<[Request]>();
    expectTypeOf(protectedWorker.fetch).parameters.toEqualTypeOf<[Request]>();
  });

  it('the verified caller goes through handle(), not a second argument', () => {
    expectTypeOf(handler).parameters.toEqualTypeOf<[Request]>();
    expectTypeOf(handler.handle).parameters.toEqualTypeOf<[Request, HttpRequestExtra]>();
    const twoArguments = (_request: Request, _extra?: HttpRequestExtra) => Promise.resolve(new Response());
    // @ts-expect-error a handler reading a second argument as its extras does not fit Bun's fetch
    Bun.serve({ fetch: twoArguments });
  });
});
