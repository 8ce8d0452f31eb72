/**
 * How `mcpkit dev` runs a server file with this Node: JavaScript as is; TypeScript through tsx,
 * found in the user's project first, else beside mcpkit, else Node's own type stripping (Node
 * 22.18 and later, 23.6 and later), else a clear error. Node 20, which the project supports, cannot
 * run TypeScript by itself.
 *
 * Why tsx: it runs any TypeScript a project writes (enums, `paths`, `.js` imports of `.ts`
 * files), where Node's type stripping refuses syntax that needs transforming; it is the loader the
 * ecosystem settled on (`node --import tsx`). Why the user's own copy first: its version is the one
 * their project pinned. It is an optional peer dependency of mcpkit, so it is never installed for
 * someone who only runs JavaScript.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError, ExitCode } from '../errors.js';

/** The extensions run through a TypeScript loader. */
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

/**
 * Where to look for tsx, first found wins: beside the server file, the working directory, mcpkit.
 *
 * @example
 * ```ts
 * const bases = tsxSearchPath('/p/src/server.ts', '/p'); // ['/p/src/', '/p/', this module's URL]
 * ```
 */
export function tsxSearchPath(file: string, cwd: string): string[] {
  return [join(dirname(file), 'noop.js'), join(cwd, 'noop.js'), import.meta.url];
}

/**
 * The Node arguments that come before the script: `--import <tsx>` for TypeScript (none when Node
 * strips types itself, none for JavaScript).
 *
 * @throws {CliError} TypeScript with no tsx to be found, on a Node that cannot strip types.
 * @example
 * ```ts
 * nodeArgsFor('/p/server.ts', '/p'); // ['--import', 'file:///p/node_modules/tsx/dist/loader.mjs']
 * nodeArgsFor('/p/server.js', '/p'); // []
 * ```
 */
export function nodeArgsFor(
  file: string,
  cwd: string,
  search: readonly string[] = tsxSearchPath(file, cwd),
  nodeStripsTypes: boolean = Boolean((process.features as { typescript?: unknown }).typescript),
): string[] {
  if (!TYPESCRIPT.has(extname(file).toLowerCase())) return [];
  const tsx = findTsx(search);
  if (tsx) return ['--import', pathToFileURL(tsx).href];
  if (nodeStripsTypes) return [];
  throw new CliError(
    ExitCode.Usage,
    `Node ${process.version} cannot run TypeScript (${file}) by itself, and tsx is not installed`,
    'install tsx: npm install -D tsx (or use Node 22.18 or later, which strips types by itself)',
  );
}

/** The entry of the first tsx found from `bases` (files or file URLs a `require` would start at). */
function findTsx(bases: readonly string[]): string | undefined {
  for (const base of bases) {
    try {
      return createRequire(base).resolve('tsx');
    } catch {
      // not installed there: the next place
    }
  }
  return undefined;
}
