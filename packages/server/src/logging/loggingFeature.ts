/**
 * The logging feature: `logging/setLevel` per session, and log messages broadcast to every session
 * whose level lets them through. Always declared.
 * @module
 */
import { LOGGING_LEVELS, type LoggingLevel, Method, Notification } from '@mcpkit/core';
import { Feature, type FeatureHandlers } from '../feature.js';
import type { RequestContext } from '../kernel/context.js';
import { invalidParams } from '../params.js';

/**
 * The `logging/setLevel` handler and server-wide log messages.
 *
 * @example
 * ```ts
 * const logging = new LoggingFeature(host);
 * logging.install();
 * logging.log('warning', { disk: '95% full' }, 'storage');
 * ```
 */
export class LoggingFeature extends Feature {
  protected readonly capability = { logging: {} };

  protected handlers(): FeatureHandlers {
    return { [Method.LoggingSetLevel]: (params, ctx) => this.#setLevel(params, ctx) };
  }

  /** Sends a log message to every session whose `logging/setLevel` lets `level` through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    // The level as data too, so that in a cluster every node applies it to the sessions it holds.
    this.host.broadcast(Notification.Message, params, (session) => session.wantsLog(level), {
      logLevel: level,
    });
  }

  #setLevel(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const level = params.level;
    if (typeof level !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
      throw invalidParams(`logging/setLevel: "level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    ctx.session.logLevel = level as LoggingLevel;
    return {};
  }
}
