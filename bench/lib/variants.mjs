/**
 * The benchmark's switches for the mcpkit echo server, read from the environment. Loaded by
 * bench/servers/mcpkit-echo.mjs only when one is set, through a specifier the bundle scenario does
 * not follow, so the minimal-server bundles hold what a user ships and none of the harness.
 *
 * - `MCPKIT_BENCH_OBSERVE=otel|otel-nosdk|prometheus|both` installs an observer (./observe.mjs).
 * - `MCPKIT_BENCH_MIDDLEWARE` (issue 21: at most 5% with three pass-through middlewares): unset or
 *   `none`, nothing (the published numbers); `n` or `mw<n>`, n pass-through middlewares;
 *   `ratelimit`, the rate-limit guard with a limit no load reaches, so every request pays its
 *   bookkeeping and none is refused.
 * @module
 */
import { rateLimit } from '@mcpkit/server/guards';
import { benchObserver } from './observe.mjs';

/**
 * What the environment asks the echo server to install.
 * @returns {Promise<{ observer: object | undefined, rateLimiter: ReturnType<typeof rateLimit> | undefined, install(server: import('@mcpkit/server').McpServer): void }>}
 * @example
 * const { observer, install } = await benchVariant();
 */
export async function benchVariant() {
  const observer = await benchObserver();
  const variant = process.env.MCPKIT_BENCH_MIDDLEWARE ?? 'none';
  const passThrough = variant === 'none' || variant === 'ratelimit' ? 0 : Number(variant.replace(/^mw/, ''));
  if (!Number.isInteger(passThrough) || passThrough < 0)
    throw new Error(`bad MCPKIT_BENCH_MIDDLEWARE=${variant}`);
  const rateLimiter = variant === 'ratelimit' ? rateLimit({ rate: 1e9 }) : undefined;
  return {
    observer,
    rateLimiter,
    install(server) {
      for (let i = 0; i < passThrough; i++) server.use((_ctx, next) => next());
      if (rateLimiter) server.use(rateLimiter);
    },
  };
}
