/**
 * Option values that begin with a dash. An authorization server issues client ids and secrets of
 * random characters, and `-` is one of them (`-3fXq…`), but Node's `util.parseArgs` refuses
 * `--client-id -3fXq…` as ambiguous (the value could be a forgotten one followed by an option).
 * For the options whose value is such an opaque string, a following word that is not an option
 * mcpkit knows is taken as the value, as `--client-id=-3fXq…` always was.
 * @module
 */
import { OPTIONS, type OptionName } from './argOptions.js';

/** Options whose value is an opaque credential that may begin with a dash. */
const OPAQUE_VALUED: ReadonlySet<string> = new Set(
  (['client-id', 'client-secret'] satisfies OptionName[]).map((name) => `--${name}`),
);

const SHORT_FLAGS: ReadonlySet<string> = new Set(
  Object.values(OPTIONS).flatMap((option) => ('short' in option ? [`-${option.short}`] : [])),
);

/** True when `word` is `--`, or spells an option mcpkit knows (`--json`, `--timeout=5s`, `-v`). */
function isOption(word: string): boolean {
  if (word === '--') return true;
  if (word.startsWith('--')) return Object.hasOwn(OPTIONS, word.slice(2).split('=', 1)[0]!);
  return SHORT_FLAGS.has(word);
}

/**
 * `argv` with `--client-id -3fXq…` (and `--client-secret`) written `--client-id=-3fXq…`, so that
 * `util.parseArgs` takes the value; a following word that is an option is left alone (then the
 * option lacks its value, and parseArgs says so). Nothing after `--` is touched: it is the
 * server's command.
 *
 * @example
 * ```ts
 * attachDashValues(['login', 'https://h/mcp', '--client-id', '-3fXq']);
 * // ['login', 'https://h/mcp', '--client-id=-3fXq']
 * ```
 */
export function attachDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') {
      out.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    if (OPAQUE_VALUED.has(word) && next?.startsWith('-') && !isOption(next)) {
      out.push(`${word}=${next}`);
      index++;
      continue;
    }
    out.push(word);
  }
  return out;
}
