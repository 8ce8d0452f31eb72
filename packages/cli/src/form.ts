/**
 * Elicitation on a terminal: the server's form is asked field by field, each answer checked
 * against the field's schema before the next question.
 * @module
 */
import { createInterface, type Interface } from 'node:readline';
import type {
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  PrimitiveSchemaDefinition,
} from '@mcpkit/core';
import type { OutputStream, Style } from './output.js';

/** The terminal a form is asked on. */
export interface FormTerminal {
  readonly input: NodeJS.ReadableStream;
  readonly output: OutputStream & NodeJS.WritableStream;
  /** Use terminal line editing (and raw-mode Ctrl-C). Default: whether `input` is a TTY. */
  readonly terminal?: boolean;
}

type Field = PrimitiveSchemaDefinition & Record<string, unknown>;
type Answer = string | number | boolean | string[];

/** Thrown inside the prompt loop when the user stops answering. */
class Stop {
  constructor(readonly action: 'decline' | 'cancel') {}
}

/**
 * Asks the user to fill in a form-mode elicitation, one question per field. Ctrl-C cancels,
 * Ctrl-D (end of input) declines, and an empty answer skips an optional field or takes its
 * default.
 *
 * @example
 * ```ts
 * const result = await askForm(params, { input: process.stdin, output: process.stderr }, style);
 * // { action: 'accept', content: { name: 'Ada', age: 36 } }
 * ```
 */
export async function askForm(
  params: ElicitRequestFormParams,
  io: FormTerminal,
  style: Style,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  return asking(io, signal, style, true, async (asker) => {
    io.output.write(`\n${style.bold(style.yellow('The server asks:'))} ${params.message}\n`);
    io.output.write(style.dim('Empty answer: skip or take the default. Ctrl-C cancels, Ctrl-D declines.\n'));
    const schema = params.requestedSchema;
    const required = new Set(schema.required ?? []);
    const content: Record<string, Answer> = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const answer = await askField(asker, name, field as Field, required.has(name), style);
      if (answer !== undefined) content[name] = answer;
    }
    if (!(await askYesNo(asker, style.bold('Send these answers?'), true))) return { action: 'decline' };
    return { action: 'accept', content };
  });
}

/**
 * Offers a URL-mode elicitation: shows the URL and asks whether the user will open it. The data
 * entered on that page never passes through this client.
 *
 * @example
 * ```ts
 * const result = await askUrl(params, { input: process.stdin, output: process.stderr }, style);
 * ```
 */
export async function askUrl(
  params: ElicitRequestURLParams,
  io: FormTerminal,
  style: Style,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  return asking(io, signal, style, false, async (asker) => {
    const host = safeHost(params.url);
    io.output.write(
      `\n${style.bold(style.yellow('The server asks you to open a page:'))} ${params.message}\n`,
    );
    io.output.write(`  ${style.cyan(params.url)}\n`);
    if (host) io.output.write(style.dim(`  (on ${host}; only open it if you trust that site)\n`));
    const yes = await askYesNo(asker, 'Will you open it?', false);
    if (yes)
      io.output.write(
        style.dim('Open the URL above in your browser; the server continues once you finish there.\n'),
      );
    return { action: yes ? 'accept' : 'decline' };
  });
}

/**
 * Runs `ask` with a line asker, closed afterwards. Ctrl-C or Ctrl-D (a `Stop`) ends it as cancel
 * or decline, said aloud when `sayStop`.
 */
async function asking(
  io: FormTerminal,
  signal: AbortSignal | undefined,
  style: Style,
  sayStop: boolean,
  ask: (asker: LineAsker) => Promise<ElicitResult>,
): Promise<ElicitResult> {
  const asker = new LineAsker(io, signal);
  try {
    return await ask(asker);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    if (sayStop) io.output.write(`\n${style.dim(error.action === 'cancel' ? 'Cancelled.' : 'Declined.')}\n`);
    return { action: error.action };
  } finally {
    asker.close();
  }
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** One question at a time over readline, with Ctrl-C, Ctrl-D and an abort signal as ways out. */
class LineAsker {
  private readonly rl: Interface;
  private readonly lines: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (stop: Stop) => void } | undefined;
  private stopped: Stop | undefined;

  constructor(
    private readonly io: FormTerminal,
    private readonly signal?: AbortSignal,
  ) {
    this.rl = createInterface({
      input: io.input,
      output: io.output,
      terminal: io.terminal ?? (io.input as { isTTY?: boolean }).isTTY === true,
    });
    this.rl.on('line', (line) => this.deliver(line));
    this.rl.on('SIGINT', () => this.stop(new Stop('cancel')));
    this.rl.on('close', () => this.stop(new Stop('decline')));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  ask(question: string): Promise<string> {
    this.io.output.write(question);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  say(text: string): void {
    this.io.output.write(text);
  }

  close(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.rl.removeAllListeners('close');
    this.rl.close();
  }

  private readonly onAbort = (): void => this.stop(new Stop('cancel'));

  private deliver(line: string): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.resolve(line);
    else this.lines.push(line);
  }

  private stop(stop: Stop): void {
    this.stopped ??= stop;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.stopped);
  }
}

async function askYesNo(asker: LineAsker, question: string, byDefault: boolean): Promise<boolean> {
  for (;;) {
    const answer = (await asker.ask(`${question} ${byDefault ? '[Y/n]' : '[y/N]'} `)).trim().toLowerCase();
    if (answer === '') return byDefault;
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no') return false;
  }
}

async function askField(
  asker: LineAsker,
  name: string,
  field: Field,
  required: boolean,
  style: Style,
): Promise<Answer | undefined> {
  const choices = choicesOf(field);
  const label = `${style.bold(String(field.title ?? name))}${required ? style.red('*') : ''}`;
  if (typeof field.description === 'string') asker.say(`${style.dim(`  ${field.description}`)}\n`);
  if (choices) printChoices(asker, choices, style);
  const fallback = field.default as Answer | undefined;
  const hint = describeExpected(field, choices);
  for (;;) {
    const shown = fallback === undefined ? '' : style.dim(` [${describeDefault(fallback)}]`);
    const raw = (await asker.ask(`${label} ${style.dim(`(${hint})`)}${shown}: `)).trim();
    if (raw === '') {
      if (fallback !== undefined) return fallback;
      if (!required) return undefined;
      asker.say(`${style.red('  This field is required.')}\n`);
      continue;
    }
    const parsed = parseAnswer(raw, field, choices);
    if (typeof parsed === 'object' && parsed !== null && 'problem' in parsed) {
      asker.say(`${style.red(`  ${parsed.problem}`)}\n`);
      continue;
    }
    return parsed as Answer;
  }
}

function describeDefault(value: Answer): string {
  if (typeof value === 'boolean') return value ? 'y' : 'n';
  return Array.isArray(value) ? value.join(',') : String(value);
}

interface Choice {
  readonly value: string;
  readonly label: string;
}

/** The options of an enum field, whichever of the four enum shapes it uses. */
function choicesOf(field: Field): Choice[] | undefined {
  const fromOneOf = (list: unknown) =>
    Array.isArray(list)
      ? list.map((item: { const: string; title?: string }) => ({
          value: item.const,
          label: item.title ?? item.const,
        }))
      : undefined;
  if (field.type === 'array') {
    const items = (field.items ?? {}) as Record<string, unknown>;
    if (Array.isArray(items.enum)) return items.enum.map((value: string) => ({ value, label: value }));
    return fromOneOf(items.anyOf);
  }
  if (Array.isArray(field.oneOf)) return fromOneOf(field.oneOf);
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? (field.enumNames as string[]) : [];
    return (field.enum as string[]).map((value, index) => ({ value, label: names[index] ?? value }));
  }
  return undefined;
}

function printChoices(asker: LineAsker, choices: Choice[], style: Style): void {
  const lines = choices.map(
    (choice, index) =>
      `  ${style.cyan(String(index + 1))}) ${choice.label}${choice.label === choice.value ? '' : style.dim(` (${choice.value})`)}`,
  );
  asker.say(`${lines.join('\n')}\n`);
}

function describeExpected(field: Field, choices: Choice[] | undefined): string {
  if (choices) return field.type === 'array' ? 'numbers or values, comma-separated' : 'number or value';
  switch (field.type) {
    case 'boolean':
      return 'y/n';
    case 'integer':
      return rangeText('whole number', field);
    case 'number':
      return rangeText('number', field);
    default:
      return typeof field.format === 'string' ? String(field.format) : 'text';
  }
}

function rangeText(kind: string, field: Field): string {
  const min = typeof field.minimum === 'number' ? field.minimum : undefined;
  const max = typeof field.maximum === 'number' ? field.maximum : undefined;
  if (min !== undefined && max !== undefined) return `${kind}, ${min} to ${max}`;
  if (min !== undefined) return `${kind}, at least ${min}`;
  if (max !== undefined) return `${kind}, at most ${max}`;
  return kind;
}

/**
 * Parses and checks one answer. Returns the value, or `{ problem }` to ask again.
 *
 * @example
 * ```ts
 * parseAnswer('42', { type: 'integer', maximum: 10 }, undefined); // { problem: 'At most 10.' }
 * ```
 */
export function parseAnswer(
  raw: string,
  field: Field,
  choices: Choice[] | undefined,
): Answer | { problem: string } {
  if (choices) return parseChoice(raw, field, choices);
  switch (field.type) {
    case 'boolean': {
      const word = raw.toLowerCase();
      if (['y', 'yes', 'true'].includes(word)) return true;
      if (['n', 'no', 'false'].includes(word)) return false;
      return { problem: 'Answer y or n.' };
    }
    case 'integer':
    case 'number': {
      const value = Number(raw);
      if (!Number.isFinite(value)) return { problem: 'Enter a number.' };
      if (field.type === 'integer' && !Number.isInteger(value)) return { problem: 'Enter a whole number.' };
      if (typeof field.minimum === 'number' && value < field.minimum)
        return { problem: `At least ${field.minimum}.` };
      if (typeof field.maximum === 'number' && value > field.maximum)
        return { problem: `At most ${field.maximum}.` };
      return value;
    }
    default:
      return checkString(raw, field);
  }
}

function checkString(raw: string, field: Field): Answer | { problem: string } {
  if (typeof field.minLength === 'number' && raw.length < field.minLength)
    return { problem: `At least ${field.minLength} characters.` };
  if (typeof field.maxLength === 'number' && raw.length > field.maxLength)
    return { problem: `At most ${field.maxLength} characters.` };
  if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(raw))
    return { problem: 'Enter an email address.' };
  if (field.format === 'uri' && !URL.canParse(raw))
    return { problem: 'Enter a full URI, such as https://example.com.' };
  if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(raw))
    return { problem: 'Enter a date as YYYY-MM-DD.' };
  if (field.format === 'date-time' && Number.isNaN(Date.parse(raw)))
    return { problem: 'Enter a date and time, such as 2025-11-25T10:00:00Z.' };
  return raw;
}

function parseChoice(raw: string, field: Field, choices: Choice[]): Answer | { problem: string } {
  const pick = (word: string): string | undefined => {
    const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
    if (index >= 0 && index < choices.length) return choices[index]!.value;
    return choices.find((choice) => choice.value === word || choice.label === word)?.value;
  };
  if (field.type !== 'array') {
    const value = pick(raw);
    return value === undefined ? { problem: `Choose 1 to ${choices.length}.` } : value;
  }
  const values: string[] = [];
  for (const word of raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const value = pick(word);
    if (value === undefined) return { problem: `"${word}" is not one of the choices.` };
    if (!values.includes(value)) values.push(value);
  }
  if (typeof field.minItems === 'number' && values.length < field.minItems)
    return { problem: `Choose at least ${field.minItems}.` };
  if (typeof field.maxItems === 'number' && values.length > field.maxItems)
    return { problem: `Choose at most ${field.maxItems}.` };
  return values;
}
