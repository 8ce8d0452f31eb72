/**
 * Hands the person a file the page made (a saved session, the protocol log) or an App's view
 * offered (after the person said yes) through the browser's own download, from an object URL on
 * the console's origin: nothing leaves the machine.
 * @module
 */

/**
 * Downloads `data` (text, or bytes) as a file named `name`.
 *
 * @example
 * ```ts
 * downloadFile('log.jsonl', lines.join('\n'), 'application/jsonl');
 * ```
 */
export function downloadFile(name: string, data: string | Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
