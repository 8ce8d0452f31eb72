/**
 * A bound on JSON nesting depth, checked before `JSON.parse`.
 *
 * `JSON.parse` itself copes with an array nested a million deep, but everything that walks the
 * value afterwards (envelope checks, validators, codecs, `JSON.stringify` of an echo) recurses
 * or stalls the event loop, so one 2 MB body can freeze every other client. A linear scan over
 * the text, counting brackets outside strings, refuses such a message for a fraction of what
 * parsing it costs.
 * @module
 */

/**
 * The default maximum nesting depth of an incoming message: far beyond any real MCP message
 * (the envelope, params, a tool argument and a JSON Schema use a few dozen levels at most).
 *
 * @example
 * ```ts
 * new StdioServerTransport({ maxJsonDepth: 2 * DEFAULT_MAX_JSON_DEPTH });
 * ```
 */
export const DEFAULT_MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when `text`, read as JSON, opens more than `maxDepth` arrays or objects inside each
 * other. Brackets inside strings do not count. The text need not be valid JSON: the scan only
 * counts, and `JSON.parse` judges the rest.
 *
 * @example
 * ```ts
 * exceedsJsonDepth('[[["]]]]]"]]]', 3); // false: the brackets in the string do not count
 * exceedsJsonDepth('[[[[1]]]]', 3); // true
 * ```
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  // Nesting deeper than maxDepth takes more than maxDepth brackets: most messages are shorter.
  if (text.length <= maxDepth) return false;
  let depth = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
      if (index < 0) return false; // an unterminated string: JSON.parse refuses it
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/**
 * The index of the quote that ends the string opened at `open`, or -1. Strings hold most of the
 * bytes of real messages, so this jumps with `indexOf` (vectorized) instead of a loop per char.
 */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/**
 * A message nested deeper than the configured limit, refused before parsing. Transports pass it
 * to `MessageSink.parseError`; the engine answers `-32700` with this message, which names the
 * limit.
 *
 * @example
 * ```ts
 * declare const sink: MessageSink;
 * sink.parseError(new JsonTooDeepError(512)); // answered -32700, naming the limit
 * ```
 */
export class JsonTooDeepError extends Error {
  override name = 'JsonTooDeepError';
  constructor(readonly maxDepth: number) {
    super(`the message nests arrays or objects deeper than the limit of ${maxDepth} levels`);
  }
}
