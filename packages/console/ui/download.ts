/**
 * Hands the person a file the page made (a saved session, the protocol log) through the browser's
 * own download, from an object URL: nothing leaves the machine.
 * @module
 */

/**
 * Downloads `text` as a file named `name`.
 *
 * @example
 * ```ts
 * downloadFile('log.jsonl', lines.join('\n'), 'application/jsonl');
 * ```
 */
export function downloadFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
