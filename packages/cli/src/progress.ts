/**
 * A one-line progress bar on a terminal, redrawn from the server's progress notifications.
 * @module
 */
import type { ProgressUpdate } from '@mcpkit/core';
import type { OutputStream, Style } from './output.js';

const BAR_WIDTH = 24;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\u001b[K';

/**
 * A progress bar drawn in place with `\r`. Draws nothing until the first update, and leaves the
 * line clean when cleared, so the result prints where the bar was.
 *
 * @example
 * ```ts
 * const bar = new ProgressBar(process.stderr, style);
 * await client.callTool('slow', {}, { onProgress: (p) => bar.update(p) });
 * bar.clear();
 * ```
 */
export class ProgressBar {
  private frame = 0;
  private drawn = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly stream: OutputStream,
    private readonly style: Style,
  ) {}

  private last: ProgressUpdate | undefined;

  /** Redraws the bar for `update`. */
  update(update: ProgressUpdate): void {
    this.last = update;
    this.stream.write(CLEAR_LINE + this.render(update));
    this.drawn = true;
  }

  /**
   * Writes `line` (ending in a newline) above the bar: the bar is erased, the line printed, and
   * the bar drawn again below it, so a log line never makes it vanish.
   *
   * @example
   * ```ts
   * bar.printAbove('[info] step 2 of 3\n');
   * ```
   */
  printAbove(line: string): void {
    if (!this.drawn || this.last === undefined) {
      this.stream.write(line);
      return;
    }
    this.stream.write(CLEAR_LINE + line + this.render(this.last));
  }

  /** Erases the bar, if one was drawn. */
  clear(): void {
    if (!this.drawn) return;
    this.stream.write(CLEAR_LINE);
    this.drawn = false;
  }

  /**
   * The bar's text for one update, fitted to the terminal's width.
   *
   * @example
   * ```ts
   * bar.render({ progress: 5, total: 10, message: 'step 5' }); // '[████████████░░░░░░░░░░░░]  50% 5/10 step 5 0.4s'
   * ```
   */
  render(update: ProgressUpdate): string {
    const elapsed = this.style.dim(`${((Date.now() - this.startedAt) / 1000).toFixed(1)}s`);
    const { progress, total, message } = update;
    let head: string;
    if (total !== undefined && total > 0) {
      const ratio = Math.min(1, Math.max(0, progress / total));
      const filled = Math.round(ratio * BAR_WIDTH);
      const bar = this.style.cyan('█'.repeat(filled)) + this.style.dim('░'.repeat(BAR_WIDTH - filled));
      head = `[${bar}] ${String(Math.round(ratio * 100)).padStart(3)}% ${progress}/${total}`;
    } else {
      head = `${this.style.cyan(SPINNER[this.frame++ % SPINNER.length]!)} ${progress}`;
    }
    const room = (this.stream.columns || 80) - 50;
    const text = message ? ` ${truncate(message, Math.max(10, room))}` : '';
    return `${head}${text} ${elapsed}`;
  }
}

function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
