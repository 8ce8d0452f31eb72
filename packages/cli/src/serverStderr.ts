/**
 * What the CLI keeps of a stdio server's stderr: the first line that reads like an error. The
 * transport keeps only the last 2 KiB, and a long stack trace pushes the line that explains a crash
 * (`Error: Cannot find module …`) out of it.
 * @module
 */

/** Longest line kept; a longer one is cut, as a message for a person. */
const MAX_LINE = 300;
/** Longest unfinished line held while waiting for its newline. */
const MAX_PENDING = 4096;
/** `Error: …`, `TypeError: …`, `Error [ERR_X]: …`, `error: …`, `fatal: …`, `panic: …`. */
const ERROR_LINE = /^\s*(?:\w*error|fatal|panic)\b/i;

/**
 * Watches a stdio server's stderr, passing it on to an optional sink (`--verbose`).
 *
 * @example
 * ```ts
 * const watch = new StderrWatch((text) => process.stderr.write(text));
 * const transport = createTransport(target, watch.feed);
 * // … when the server dies:
 * console.error(watch.firstError); // 'Error: API_KEY is not set'
 * ```
 */
export class StderrWatch {
  /** The first line that reads like an error, if any arrived yet. */
  firstError: string | undefined;
  private pending = '';

  constructor(private readonly sink?: (text: string) => void) {}

  /** Takes a chunk of stderr text (bound, so it can be passed as a callback). */
  readonly feed = (text: string): void => {
    this.sink?.(text);
    if (this.firstError !== undefined) return;
    const lines = (this.pending + text).split('\n');
    const last = lines.pop() ?? '';
    this.pending = last.length > MAX_PENDING ? '' : last;
    const found = lines.find((line) => ERROR_LINE.test(line));
    if (found !== undefined) {
      const line = found.trimEnd();
      this.firstError = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
    }
  };
}
