/**
 * Text for a terminal: where it goes ({@link OutputStream}), colour when the stream is a terminal
 * ({@link Style}), and the printable width of coloured text.
 * @module
 */

/** Where text goes, and whether it is a terminal. `process.stdout` fits. */
export interface OutputStream {
  write(text: string | Uint8Array): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * Colour functions; each is the identity when colour is off.
 *
 * @example
 * ```ts
 * const style = createStyle(true);
 * console.log(style.bold('Tools'));
 * ```
 */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const ANSI = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

/**
 * Builds the colour functions.
 *
 * @example
 * ```ts
 * createStyle(false).red('x'); // 'x'
 * ```
 */
export function createStyle(enabled: boolean): Style {
  const paint = (codes: readonly [number, number]) => (text: string) =>
    enabled && text !== '' ? `\u001b[${codes[0]}m${text}\u001b[${codes[1]}m` : text;
  return {
    enabled,
    bold: paint(ANSI.bold),
    dim: paint(ANSI.dim),
    red: paint(ANSI.red),
    green: paint(ANSI.green),
    yellow: paint(ANSI.yellow),
    cyan: paint(ANSI.cyan),
  };
}

/**
 * Whether to colour `stream`: `NO_COLOR` turns colour off, `FORCE_COLOR` on, otherwise only a
 * terminal gets colour.
 *
 * @example
 * ```ts
 * const style = createStyle(wantsColor(process.stdout, process.env));
 * ```
 */
export function wantsColor(stream: OutputStream, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

/** Printable width of `text`, ignoring colour codes. */
export function visibleLength(text: string): number {
  let length = 0;
  let inEscape = false;
  for (const char of text) {
    if (inEscape) {
      if (char === 'm') inEscape = false;
    } else if (char === '\u001b') {
      inEscape = true;
    } else {
      length++;
    }
  }
  return length;
}
