/**
 * JSON with comments and trailing commas, as VS Code reads `.vscode/mcp.json` (and as people
 * write the other config files by hand), parsed by Microsoft's `jsonc-parser`: the parser VS Code
 * itself uses, so a file VS Code accepts is accepted here.
 * @module
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { HostConfigError } from '../errors.js';

/**
 * Parses `text` as JSONC (comments, trailing commas).
 *
 * @throws {HostConfigError} naming the file, the line and column, and what is wrong there.
 * @example
 * ```ts
 * parseJsonc('.vscode/mcp.json', '{ // mine\n "servers": {}, }'); // { servers: {} }
 * ```
 */
export function parseJsonc(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    throw new HostConfigError(
      `${file} is not valid JSON: ${printParseErrorCode(first.error)} (line ${line}, column ${column})`,
    );
  }
  return value;
}
