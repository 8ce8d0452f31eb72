/**
 * `mcpkit console`: starts `@mcpkit/console` on the target the person named, prints its URL,
 * opens it in the browser (unless `--no-open`) and runs until Ctrl-C.
 * @module
 */
import type { ConsoleTarget } from '@mcpkit/console';
import type { ClientSettings, ParsedCommand, TargetSpec } from './args.js';
import { openSystemBrowser } from './auth/browser.js';
import type { CliIo } from './cliIo.js';
import { loadAllServers } from './config.js';
import { ExitCode, type ExitCodeValue, usageError } from './errors.js';
import { createStyle, wantsColor } from './output.js';
import { createTransport, describeTarget, resolveTarget } from './target.js';

/**
 * Runs the console until the person stops it.
 *
 * @example
 * ```ts
 * const code = await runConsole(parseCommandLine(['console', '--no-open', 'http://127.0.0.1:3000/mcp']) as never, processIo());
 * ```
 */
export async function runConsole(
  command: Extract<ParsedCommand, { kind: 'console' }>,
  io: CliIo,
): Promise<ExitCodeValue> {
  const { startConsole } = await import('@mcpkit/console');
  const target = await consoleTarget(command.target, command.settings);
  const running = await startConsole({ target, era: command.settings.era });
  const style = createStyle(wantsColor(io.stderr, io.env));
  io.stdout.write(`${running.url}\n`);
  io.stderr.write(style.dim(`mcpkit console on ${target.describe}; Ctrl-C stops it.\n`));
  if (command.open && !(await (io.openBrowser ?? openSystemBrowser)(running.url))) {
    io.stderr.write(style.dim('No browser could be opened: open the URL above.\n'));
  }
  await new Promise<void>((resolve) => {
    const remove = io.onInterrupt(() => {
      remove();
      resolve();
    });
  });
  await running.close();
  return ExitCode.Success;
}

/** `--config FILE` alone: every server of FILE behind a host; anything else: one server. */
async function consoleTarget(spec: TargetSpec, settings: ClientSettings): Promise<ConsoleTarget> {
  if (spec.kind === 'config' && spec.server === undefined) {
    const oneServerOnly = Object.keys(settings.env).length > 0 || settings.cwd !== undefined;
    if (oneServerOnly || settings.headers.length > 0) {
      throw usageError('-e, --cwd and --header apply to one server', 'Add --server NAME');
    }
    return {
      kind: 'host',
      describe: `--config ${spec.file}`,
      servers: await loadAllServers(spec.file, process.env),
    };
  }
  const resolved = await resolveTarget(spec, settings);
  const describe =
    spec.kind === 'url'
      ? spec.url.href
      : spec.kind === 'stdio'
        ? `-- ${describeTarget(resolved)}`
        : `--config ${spec.file} --server ${spec.server}`;
  // The server's stderr is not shown by the console; a stdio server that dies says why on connect.
  return { kind: 'server', describe, transport: () => createTransport(resolved, undefined) };
}
