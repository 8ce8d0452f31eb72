/**
 * A config file as JSON: parsed, with its `mcpServers` (Claude Desktop, Cursor, Windsurf, Cline)
 * or `servers` (VS Code) object found.
 * @module
 */
import { HostConfigError } from '../errors.js';
import { isRecord } from './fields.js';

/**
 * A parsed config file: the whole document (for `inputs`) and its named server entries, unchecked.
 *
 * @example
 * ```ts
 * const { servers } = readConfigDocument('mcp.json', text);
 * console.log(Object.keys(servers));
 * ```
 */
export interface ConfigDocument {
  readonly document: Record<string, unknown>;
  readonly servers: Record<string, unknown>;
}

/**
 * Parses a config file's text (strict JSON, unless `parse` reads more: the Node loader's reads
 * comments and trailing commas) and finds its servers.
 *
 * @throws {HostConfigError} invalid JSON (with line and column), or no server object.
 * @example
 * ```ts
 * const { servers } = readConfigDocument('claude_desktop_config.json', text);
 * ```
 */
export function readConfigDocument(
  file: string,
  text: string,
  parse: (file: string, text: string) => unknown = parseJson,
): ConfigDocument {
  const document = parse(file, text);
  if (!isRecord(document)) throw new HostConfigError(`${file} must hold a JSON object with "mcpServers"`);
  const servers = document.mcpServers ?? document.servers;
  if (servers === undefined) {
    throw new HostConfigError(
      `${file} has no "mcpServers" object`,
      'Expected: { "mcpServers": { "NAME": { "command": … } } }',
    );
  }
  if (!isRecord(servers))
    throw new HostConfigError(`${file}: "mcpServers" must be an object of named servers`);
  return { document, servers };
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new HostConfigError(
      `${file} is not valid JSON: ${message}${locate(message, text)}`,
      'Check for trailing commas and comments, which JSON does not allow',
    );
  }
}

/** Turns V8's "at position N" into a line and column a person can jump to. */
function locate(message: string, text: string): string {
  const match = /at position (\d+)/.exec(message);
  if (!match) return '';
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}
