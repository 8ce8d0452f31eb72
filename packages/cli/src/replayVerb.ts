/**
 * `mcpkit replay FILE TARGET`: a session the console saved, sent again to a server, each answer
 * compared field by field with the recorded one; exit 0 when every answer is the same, 6 when one
 * changed. For CI: keep a session as a regression fixture, replay it on every change of a server.
 * The format and the comparison are `@mcpkit/console/replay`'s, the page's own. A session recorded
 * against a host, replayed with `--config FILE` (several servers), sends each exchange to the
 * server it went to through the in-process gateway's host (`hostExchange`).
 * @module
 */
import { readFile } from 'node:fs/promises';
import { ErrorCode, McpError } from '@mcpkit/core';
import type { ClientAction } from './args.js';
import { ExitCode, type ExitCodeValue, usageError } from './errors.js';
import { oneLine, type Style, writeJson } from './output.js';
import { replayHostOptions } from './replayHost.js';
import type { VerbContext } from './verbContext.js';

/** Values longer than this are cut in the human report (`--json` has them whole). */
const MAX_VALUE = 120;

/**
 * Replays the session of `action.file` against the connected server and reports what changed.
 *
 * @example
 * ```ts
 * const code = await replay({ verb: 'replay', file: 'session.json', ignore: [], approveAll: false }, context);
 * ```
 */
export async function replay(
  action: Extract<ClientAction, { verb: 'replay' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  const {
    clientExchange,
    exchangeLabel,
    hostExchange,
    NotOfferedError,
    parseSession,
    parseIgnorePath,
    replaySession,
  } = await import('@mcpkit/console/replay');
  const text = await readFile(action.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw usageError(`Cannot read ${action.file} (${error.code ?? error.message})`);
  });
  let session: ReturnType<typeof parseSession>;
  try {
    session = parseSession(text);
    for (const path of [...(session.ignore ?? []), ...action.ignore]) parseIgnorePath(path);
  } catch (error) {
    throw usageError(
      `${action.file}: ${(error as Error).message}`,
      'Save a session from the console (Protocol log, Save session); --ignore takes paths like structuredContent.at or content[*].text',
    );
  }
  const { signal } = context;
  const servers = new Set(session.exchanges.flatMap((exchange) => exchange.server ?? []));
  // A host session behind --config with several servers: a host of the file's servers sends each
  // exchange to its server; anything else goes as the client sees it.
  const host =
    servers.size > 0 ? context.openHost?.(replayHostOptions(action.approveAll, context.notice)) : undefined;
  if (!host && servers.size > 1)
    context.notice(
      `The session was recorded against a host of ${servers.size} servers; each exchange goes to this one server (replay it with --config FILE to reach each of them)`,
    );
  if (action.approveAll && !host)
    context.notice(
      '--approve-all applies to a host session replayed with --config FILE of several servers; nothing here asks for consent',
    );
  const direct = clientExchange(context.client, { signal });
  const viaHost = host && hostExchange(clientExchange(host, { signal }));
  let report: Awaited<ReturnType<typeof replaySession>>;
  try {
    report = await replaySession(
      session,
      (method, params, server) =>
        viaHost && server !== undefined ? viaHost(method, params, server) : direct(method, params),
      {
        ignore: action.ignore,
        // A server's error answer is compared (and a name the host no longer offers); a lost
        // connection, a timeout or Ctrl-C ends the replay.
        isAnswer: (error) =>
          error instanceof NotOfferedError ||
          (error instanceof McpError &&
            error.code !== ErrorCode.ConnectionClosed &&
            error.code !== ErrorCode.RequestTimeout &&
            !signal.aborted),
      },
    );
  } finally {
    await host?.close();
  }
  if (context.settings.json) {
    writeJson(context.stdout, {
      same: report.changed === 0,
      total: report.total,
      changed: report.changed,
      ignore: report.ignore,
      exchanges: report.outcomes.map((outcome) => ({
        ...(outcome.exchange.server === undefined ? {} : { server: outcome.exchange.server }),
        method: outcome.exchange.method,
        params: outcome.exchange.params,
        same: outcome.same,
        ...(outcome.ignored > 0 ? { ignored: outcome.ignored } : {}),
        differences: outcome.differences.map(({ segments, ...difference }) => difference),
      })),
    });
  } else {
    const style = context.outStyle;
    for (const outcome of report.outcomes) {
      const label = exchangeLabel(outcome.exchange);
      if (outcome.same) {
        const ignored = outcome.ignored > 0 ? style.dim(` (${outcome.ignored} ignored)`) : '';
        context.stdout.write(`${style.green('same')}     ${label}${ignored}\n`);
        continue;
      }
      context.stdout.write(`${style.red('changed')}  ${label}\n`);
      for (const difference of outcome.differences)
        context.stdout.write(`         ${describe(difference, style)}\n`);
    }
    const summary =
      report.changed === 0
        ? style.green(`All ${report.total} answers are the same as recorded.`)
        : style.red(`${report.changed} of ${report.total} answers changed.`);
    context.stdout.write(`${summary}\n`);
  }
  return report.changed === 0 ? ExitCode.Success : ExitCode.Changed;
}

/** One difference on one line: `~ content[0].text: "old" → "new"`. */
function describe(
  difference: { change: string; path: string; before?: unknown; after?: unknown },
  style: Style,
): string {
  const path = difference.path || '(the whole answer)';
  if (difference.change === 'added') return `${style.green('+')} ${path}: ${value(difference.after)}`;
  if (difference.change === 'removed') return `${style.red('-')} ${path}: ${value(difference.before)}`;
  return `${style.yellow('~')} ${path}: ${value(difference.before)} → ${value(difference.after)}`;
}

function value(item: unknown): string {
  return oneLine(JSON.stringify(item) ?? 'undefined', MAX_VALUE);
}
