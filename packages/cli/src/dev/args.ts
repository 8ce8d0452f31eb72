/**
 * The command line of `mcpkit dev FILE [--http [--port N] [--host H] | --stdio] [--watch PATH]…
 * [-- SERVER-ARGS…]`.
 * @module
 */
import { extname } from 'node:path';
import type { Values } from '../argOptions.js';
import type { DevSettings } from '../argTypes.js';
import { usageError } from '../errors.js';
import { listenAt } from '../serverArgs.js';

/** The usage line, for hints. */
export const DEV_HINT =
  'mcpkit dev server.ts [--http [--port N] | --stdio] [--watch PATH]… [-- SERVER-ARGS…]';

/**
 * The scripts `mcpkit dev` runs with Node: JavaScript as is, TypeScript through tsx (or Node's
 * own type stripping).
 *
 * @example
 * ```ts
 * DEV_EXTENSIONS.includes('.ts'); // true
 * ```
 */
export const DEV_EXTENSIONS: readonly string[] = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

/**
 * The settings of `dev`: FILE (one positional), the front (`--http`, the default, or `--stdio`),
 * the watched paths, and the server's own arguments after `--`.
 *
 * @throws {CliError} a usage error: no FILE or several, an extension Node cannot run, both fronts,
 * `--port`/`--host` with `--stdio`.
 * @example
 * ```ts
 * devSettings(['server.ts'], ['--verbose'], { stdio: true });
 * // { file: 'server.ts', transport: 'stdio', port: 3000, host: '127.0.0.1', watch: [], serverArgs: ['--verbose'] }
 * ```
 */
export function devSettings(
  positionals: readonly string[],
  after: readonly string[] | undefined,
  values: Values,
): DevSettings {
  const [file, ...extra] = positionals;
  if (file === undefined) throw usageError('"dev" needs the server file to run', DEV_HINT);
  if (extra.length > 0) {
    throw usageError(
      `"dev" runs one file, got "${positionals.join(' ')}"; the server's own arguments go after --`,
      DEV_HINT,
    );
  }
  if (!DEV_EXTENSIONS.includes(extname(file).toLowerCase())) {
    throw usageError(
      `"dev" runs a Node script (${DEV_EXTENSIONS.join(', ')}), got "${file}"`,
      'For another kind of server, use: mcpkit gateway, or mcpkit list -- COMMAND',
    );
  }
  if (values.stdio && values.http) throw usageError('Choose one of --stdio and --http', DEV_HINT);
  if (values.stdio && (values.port !== undefined || values.host !== undefined)) {
    throw usageError('--port and --host apply to --http only', DEV_HINT);
  }
  return {
    file,
    transport: values.stdio ? 'stdio' : 'http',
    ...listenAt(values),
    watch: values.watch ?? [],
    serverArgs: after ?? [],
  };
}
