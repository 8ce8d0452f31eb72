/**
 * RFC 6570 URI templates for MCP resource templates.
 *
 * Expansion is delegated to the `url-template` library so that the encoding rules of RFC 6570 live
 * in one well-tested place. Matching (the inverse, which RFC 6570 leaves undefined) is ours: the
 * template is parsed once into literal and expression parts, and a URI is matched by a single
 * left-to-right scan with no regular expressions, so its cost grows linearly with the URI. This is
 * deliberate: the official SDK compiled templates into backtracking regular expressions and shipped
 * an exponential-time match on exploded variables (CVE-2026-0621).
 * @module
 */

import { parseTemplate, type Template } from 'url-template';

/** A value a template variable can take when expanding. `undefined` leaves the variable out. */
export type UriTemplateValue = string | string[] | Record<string, string> | undefined;

/** Values for {@link UriTemplate.expand}, keyed by variable name. */
export type UriTemplateVariables = Record<string, UriTemplateValue>;

/** Variables extracted by {@link UriTemplate.match}, percent-decoded. */
export type UriTemplateMatch = Record<string, string | string[]>;

/** Size limits for a {@link UriTemplate}; both default to the `DEFAULT_*` statics. */
export interface UriTemplateOptions {
  /** Templates longer than this (in UTF-16 code units) are refused by the constructor. */
  maxTemplateLength?: number;
  /** URIs longer than this (in UTF-16 code units) never match; `match` returns `undefined` at once. */
  maxUriLength?: number;
}

/** Raised for a malformed template or a value that cannot be expanded. */
export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
}

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface OperatorRules {
  /** Character that starts a non-empty expansion ('' for none). */
  readonly first: string;
  /** Character placed between the items of an expansion. */
  readonly separator: string;
  /** Whether items are `name=value` pairs. */
  readonly named: boolean;
  /** Whether values keep reserved characters unencoded (`+` and `#`). */
  readonly reserved: boolean;
  /** Characters that cannot occur inside this expression's expansion, so they end it. */
  readonly stopChars: string;
}

interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** Maximum value length from a `:N` prefix modifier. */
  readonly maxLength: number | undefined;
}

interface LiteralPart {
  readonly kind: 'literal';
  /** The literal as it appears in an expanded URI (encoded the way the expansion library does). */
  readonly text: string;
}

interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly rules: OperatorRules;
  readonly varSpecs: readonly VarSpec[];
}

type TemplatePart = LiteralPart | ExpressionPart;

/** RFC 3986 reserved characters; an encoded value only holds those its operator puts there itself. */
const RFC3986_RESERVED = ":/?#[]@!$&'()*+,;=";

function rules(first: string, separator: string, named: boolean, reserved: boolean): OperatorRules {
  // Commas join list members and `=` joins exploded pairs, so every operator may contain them; the
  // separator too. Reserved expansion may contain anything, so only the following part can end it.
  const structural = `,=${separator}`;
  const stopChars = reserved ? '' : [...RFC3986_RESERVED].filter((c) => !structural.includes(c)).join('');
  return { first, separator, named, reserved, stopChars };
}

const OPERATOR_RULES: Readonly<Record<Operator, OperatorRules>> = {
  '': rules('', ',', false, false),
  '+': rules('', ',', false, true),
  '#': rules('#', ',', false, true),
  '.': rules('.', '.', false, false),
  '/': rules('/', '/', false, false),
  ';': rules(';', ';', true, false),
  '?': rules('?', '&', true, false),
  '&': rules('&', '&', true, false),
};

/** Operators RFC 6570 reserves for future extensions; a template using one is refused. */
const FUTURE_OPERATORS = '=,!@|';

const MAX_PREFIX_LENGTH = 9999;

function templateError(position: number, problem: string): UriTemplateError {
  return new UriTemplateError(`Invalid URI template at position ${position}: ${problem}`);
}

function isHexDigit(char: string | undefined): boolean {
  return (
    char !== undefined &&
    ((char >= '0' && char <= '9') || (char >= 'a' && char <= 'f') || (char >= 'A' && char <= 'F'))
  );
}

function isVarChar(char: string): boolean {
  return (
    (char >= 'a' && char <= 'z') ||
    (char >= 'A' && char <= 'Z') ||
    (char >= '0' && char <= '9') ||
    char === '_'
  );
}

/** RFC 6570 varname: varchars (ALPHA, DIGIT, `_`, pct-encoded) with single dots between them. */
function isValidVarName(name: string): boolean {
  let afterDot = true;
  for (let i = 0; i < name.length; i++) {
    const char = name[i]!;
    if (char === '.') {
      if (afterDot) return false;
      afterDot = true;
    } else if (char === '%') {
      if (!isHexDigit(name[i + 1]) || !isHexDigit(name[i + 2])) return false;
      i += 2;
      afterDot = false;
    } else if (isVarChar(char)) {
      afterDot = false;
    } else {
      return false;
    }
  }
  return !afterDot;
}

function parseMaxLength(digits: string, position: number): number {
  const valid = digits.length >= 1 && digits.length <= 4 && digits[0] !== '0';
  if (!valid || ![...digits].every((d) => d >= '0' && d <= '9')) {
    throw templateError(position, `prefix length must be an integer from 1 to ${MAX_PREFIX_LENGTH}`);
  }
  return Number(digits);
}

function parseVarSpec(spec: string, position: number): VarSpec {
  let name = spec;
  let explode = false;
  let maxLength: number | undefined;
  if (spec.endsWith('*')) {
    name = spec.slice(0, -1);
    explode = true;
  } else if (spec.includes(':')) {
    const colon = spec.indexOf(':');
    name = spec.slice(0, colon);
    maxLength = parseMaxLength(spec.slice(colon + 1), position);
  }
  if (name === '') throw templateError(position, 'empty variable name');
  if (!isValidVarName(name)) throw templateError(position, `invalid variable name "${name}"`);
  return { name, explode, maxLength };
}

function parseExpression(body: string, position: number): ExpressionPart {
  if (body === '') throw templateError(position, 'empty expression "{}"');
  const head = body[0]!;
  if (FUTURE_OPERATORS.includes(head)) {
    throw templateError(position, `operator "${head}" is reserved for future extensions`);
  }
  const operator = (head in OPERATOR_RULES ? head : '') as Operator;
  const varSpecs = body
    .slice(operator.length)
    .split(',')
    .map((spec) => parseVarSpec(spec, position));
  return { kind: 'expression', operator, rules: OPERATOR_RULES[operator], varSpecs };
}

function literalPart(raw: string, position: number): LiteralPart {
  const stray = raw.indexOf('}');
  if (stray !== -1) throw templateError(position + stray, 'unmatched "}"');
  // The library encodes literals (e.g. a space becomes %20); match what expand() would produce.
  return { kind: 'literal', text: parseTemplate(raw).expand({}) };
}

/** Splits a template into literal and expression parts in one pass. */
function parseParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let position = 0;
  while (position < template.length) {
    const open = template.indexOf('{', position);
    const literalEnd = open === -1 ? template.length : open;
    if (literalEnd > position) parts.push(literalPart(template.slice(position, literalEnd), position));
    if (open === -1) break;
    const close = template.indexOf('}', open + 1);
    const nested = template.indexOf('{', open + 1);
    if (close === -1) throw templateError(open, 'unclosed "{"');
    if (nested !== -1 && nested < close) throw templateError(nested, '"{" inside an expression');
    parts.push(parseExpression(template.slice(open + 1, close), open));
    position = close + 1;
  }
  return parts;
}

function percentDecode(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // malformed escape or invalid UTF-8: the URI simply does not match
  }
}

/**
 * Decodes one matched value. Outside reserved expansion a string's commas are always encoded, so a
 * raw comma can only come from a list joined by the expansion and the value is returned as one.
 */
function decodeValue(raw: string, reserved: boolean): string | string[] | undefined {
  if (reserved || !raw.includes(',')) return percentDecode(raw);
  return decodeList(raw.split(','));
}

function decodeList(raws: readonly string[]): string[] | undefined {
  const values: string[] = [];
  for (const raw of raws) {
    const value = percentDecode(raw);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

function asList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

interface Binding {
  value: string | string[];
  /** Set when the value came through a `:N` prefix, so it may be a truncation of the real value. */
  truncated: boolean;
}

/** Collects matched variables and rejects a URI whose repeated variables disagree. */
class Bindings {
  readonly #bound = new Map<string, Binding>();

  bind(spec: VarSpec, value: string | string[]): boolean {
    const truncated = spec.maxLength !== undefined && typeof value === 'string';
    if (truncated && value.length > spec.maxLength!) return false;
    const prior = this.#bound.get(spec.name);
    if (prior === undefined) {
      this.#bound.set(spec.name, { value, truncated });
      return true;
    }
    return this.#merge(prior, { value, truncated });
  }

  #merge(prior: Binding, next: Binding): boolean {
    if (typeof prior.value === 'string' && typeof next.value === 'string') {
      if (prior.truncated || next.truncated) return this.#mergeTruncated(prior, next);
      return prior.value === next.value;
    }
    // A one-item list and a string expand alike; keep the list form.
    if (!sameList(asList(prior.value), asList(next.value))) return false;
    if (Array.isArray(next.value)) prior.value = next.value;
    return true;
  }

  #mergeTruncated(prior: Binding, next: Binding): boolean {
    const [shorter, longer] = prior.value.length <= next.value.length ? [prior, next] : [next, prior];
    if (!(longer.value as string).startsWith(shorter.value as string)) return false;
    if (shorter.truncated) {
      prior.value = longer.value;
      prior.truncated = longer.truncated;
      return true;
    }
    return prior.value === next.value;
  }

  toRecord(): UriTemplateMatch {
    // fromEntries defines own properties, so a variable named __proto__ cannot reach the prototype.
    return Object.fromEntries([...this.#bound].map(([name, binding]) => [name, binding.value]));
  }
}

/** Whether the operator lets the expression's last variable take the rest of its items verbatim. */
function lastVariableTakesRest(operator: Operator): boolean {
  // For `.` the separator is unreserved and appears unencoded inside values; for ',' separators the
  // rest is either a list (non-reserved) or commas inside a reserved value.
  return operator !== '/';
}

function matchPositional(part: ExpressionPart, body: string, bindings: Bindings): boolean {
  const { separator, reserved } = part.rules;
  const items = body.split(separator);
  let next = 0;
  for (let s = 0; s < part.varSpecs.length && next < items.length; s++) {
    const spec = part.varSpecs[s]!;
    let value: string | string[] | undefined;
    if (spec.explode) {
      value = decodeList(items.slice(next));
      next = items.length;
    } else if (s === part.varSpecs.length - 1 && lastVariableTakesRest(part.operator)) {
      value = decodeValue(items.slice(next).join(separator), reserved);
      next = items.length;
    } else {
      value = decodeValue(items[next++]!, reserved);
    }
    if (value === undefined || !bindings.bind(spec, value)) return false;
  }
  return next === items.length;
}

function matchNamed(part: ExpressionPart, body: string, bindings: Bindings): boolean {
  const exploded = new Map<VarSpec, string[]>();
  for (const item of body.split(part.rules.separator)) {
    const equals = item.indexOf('=');
    const name = percentDecode(equals === -1 ? item : item.slice(0, equals));
    const spec = part.varSpecs.find((candidate) => candidate.name === name);
    if (spec === undefined) return false;
    const raw = equals === -1 ? '' : item.slice(equals + 1);
    if (spec.explode) {
      const value = percentDecode(raw);
      if (value === undefined) return false;
      const values = exploded.get(spec);
      if (values === undefined) exploded.set(spec, [value]);
      else values.push(value);
    } else {
      const value = decodeValue(raw, false);
      if (value === undefined || !bindings.bind(spec, value)) return false;
    }
  }
  return [...exploded].every(([spec, values]) => bindings.bind(spec, values));
}

/** Matches the whole text an expression expanded to; an empty region means it expanded to nothing. */
function matchExpression(part: ExpressionPart, region: string, bindings: Bindings): boolean {
  const { first, named } = part.rules;
  if (first === '') return matchPositional(part, region, bindings);
  if (region === '') return true;
  if (region[0] !== first) return false;
  const body = region.slice(1);
  return named ? matchNamed(part, body, bindings) : matchPositional(part, body, bindings);
}

/** What ends an expression's text in a URI, worked out once per template. */
interface Boundary {
  /** The first literal after the expression ('' for none), with any expressions in between. */
  readonly literal: string;
  /** Whether that literal ends the template, so it is anchored to the end of the URI. */
  readonly literalIsFinal: boolean;
  /** Operator character of a directly following expression ('' for none). */
  readonly nextFirst: string;
}

/** The boundary of every part (only used for expressions), computed right to left. */
function boundaries(parts: readonly TemplatePart[]): Boundary[] {
  const result: Boundary[] = new Array(parts.length);
  let literal = '';
  let literalIsFinal = false;
  for (let p = parts.length - 1; p >= 0; p--) {
    const following = parts[p + 1];
    const nextFirst = following?.kind === 'expression' ? following.rules.first : '';
    result[p] = { literal, literalIsFinal, nextFirst };
    const part = parts[p]!;
    if (part.kind === 'literal') {
      literal = part.text;
      literalIsFinal = p === parts.length - 1;
    }
  }
  return result;
}

/**
 * Where the expression starting at `start` ends: at the next literal (anchored to the end of the
 * URI when it ends the template, otherwise at its first occurrence), at the operator character of a
 * directly following expression, or at a character this expression's expansion cannot contain.
 * Each character is looked at once (plus a literal comparison), so the scan is linear in the URI.
 */
function expressionEnd(uri: string, start: number, part: ExpressionPart, boundary: Boundary): number {
  const { literal, literalIsFinal, nextFirst } = boundary;
  const limit = literalIsFinal ? uri.length - literal.length : uri.length;
  const search = literalIsFinal ? '' : literal;
  const { first, stopChars } = part.rules;
  const bodyStart = first !== '' && uri[start] === first ? start + 1 : start;
  for (let i = start; i < limit; i++) {
    const char = uri[i]!;
    if (search !== '' && char === search[0] && uri.startsWith(search, i)) return i;
    if (i >= bodyStart && (char === nextFirst || stopChars.includes(char))) return i;
  }
  return limit;
}

/**
 * An RFC 6570 URI template, as used by MCP `ResourceTemplate.uriTemplate`: expands variables into a
 * URI and matches a URI back into variables.
 *
 * Matching is a best-effort inverse of expansion, decided left to right without backtracking:
 * - a literal must appear verbatim (in its expanded, percent-encoded form);
 * - an expression runs up to the next literal (the template's last literal is anchored at the end
 *   of the URI, any other at its first occurrence), up to the operator character of a directly
 *   following expression, or up to a reserved character its operator never emits unencoded;
 * - inside an expression, items are split on the operator's separator; `;`, `?` and `&` items are
 *   matched by name in any order (unknown names do not match), other operators assign items in
 *   template order; an exploded variable takes all remaining items (or every item with its name);
 * - values are percent-decoded; malformed escapes make the URI not match.
 * A non-exploded value with an unencoded comma (outside `+`/`#`) is returned as a list.
 *
 * @example
 * ```ts
 * const t = new UriTemplate('users/{id}/posts{/postId}{?fields*}');
 * t.expand({ id: 'ada lovelace', postId: '7', fields: ['title', 'body'] });
 * // 'users/ada%20lovelace/posts/7?fields=title&fields=body'
 * t.match('users/ada%20lovelace/posts/7?fields=title&fields=body');
 * // { id: 'ada lovelace', postId: '7', fields: ['title', 'body'] }
 * t.match('users/ada/comments'); // undefined
 * ```
 */
export class UriTemplate {
  /** Default longest template the constructor accepts. */
  static readonly DEFAULT_MAX_TEMPLATE_LENGTH = 4096;
  /** Default longest URI `match` will look at. */
  static readonly DEFAULT_MAX_URI_LENGTH = 8192;

  /** The template text as given. */
  readonly template: string;
  /** Names of the template's variables, each once, in order of first appearance. */
  readonly variableNames: readonly string[];

  readonly #parts: readonly TemplatePart[];
  readonly #boundaries: readonly Boundary[];
  readonly #expander: Template;
  readonly #maxUriLength: number;

  /**
   * Parses a template.
   *
   * @throws {UriTemplateError} for a malformed template (unbalanced braces, empty or reserved
   * operator, bad variable name or prefix) or one longer than `maxTemplateLength`.
   * @example
   * ```ts
   * new UriTemplate('file:///{+path}');
   * new UriTemplate('search{?q', { maxUriLength: 2048 }); // throws UriTemplateError: unclosed "{"
   * ```
   */
  constructor(template: string, options: UriTemplateOptions = {}) {
    const maxTemplateLength = positiveLimit(
      options.maxTemplateLength,
      UriTemplate.DEFAULT_MAX_TEMPLATE_LENGTH,
    );
    this.#maxUriLength = positiveLimit(options.maxUriLength, UriTemplate.DEFAULT_MAX_URI_LENGTH);
    if (typeof template !== 'string') throw new UriTemplateError('A URI template must be a string');
    if (template.length > maxTemplateLength) {
      throw new UriTemplateError(`URI template is longer than ${maxTemplateLength} characters`);
    }
    this.template = template;
    this.#parts = parseParts(template);
    this.#boundaries = boundaries(this.#parts);
    this.#expander = parseTemplate(template);
    const names = this.#parts.flatMap((part) =>
      part.kind === 'expression' ? part.varSpecs.map((v) => v.name) : [],
    );
    this.variableNames = Object.freeze([...new Set(names)]);
  }

  /**
   * Whether a string contains at least one `{expression}` (non-empty, no whitespace or braces
   * inside), i.e. whether it is a template rather than a plain URI. It does not validate the
   * template; the constructor does.
   *
   * @example
   * ```ts
   * UriTemplate.isTemplate('test://template/{id}/data'); // true
   * UriTemplate.isTemplate('test://static/resource'); // false
   * ```
   */
  static isTemplate(s: string): boolean {
    let open = -1;
    for (let i = 0; i < s.length; i++) {
      const char = s[i]!;
      if (char === '{') open = i;
      else if (char === '}' && open !== -1 && i > open + 1) return true;
      else if (char === '}' || char.trim() === '') open = -1;
    }
    return false;
  }

  /**
   * Expands the template with RFC 6570 semantics (via the `url-template` library). Undefined values,
   * empty lists and empty maps leave their variable out, as RFC 6570 section 2.3 says.
   *
   * @throws {UriTemplateError} when a value holds a lone UTF-16 surrogate (not percent-encodable).
   * @example
   * ```ts
   * new UriTemplate('search{?q,lang}').expand({ q: 'mcp & you', lang: undefined }); // 'search?q=mcp%20%26%20you'
   * new UriTemplate('{/segments*}').expand({ segments: ['a', 'b c'] }); // '/a/b%20c'
   * ```
   */
  expand(variables: UriTemplateVariables): string {
    const context: Record<string, string | string[] | Record<string, string>> = Object.create(null);
    for (const [name, value] of Object.entries(variables)) {
      if (isDefinedValue(value)) context[name] = value;
    }
    try {
      return this.#expander.expand(context);
    } catch (error) {
      if (error instanceof URIError) {
        throw new UriTemplateError(
          'A URI template value contains a lone UTF-16 surrogate and cannot be encoded',
        );
      }
      throw error;
    }
  }

  /**
   * Matches a URI against the template and returns its percent-decoded variables, or `undefined`
   * when it does not match or is longer than `maxUriLength`. Variables absent from the URI are
   * absent from the result. Runs in time linear in the URI length.
   *
   * @example
   * ```ts
   * new UriTemplate('test://template/{id}/data').match('test://template/42/data'); // { id: '42' }
   * new UriTemplate('file:///{+path}').match('file:///etc/hosts'); // { path: 'etc/hosts' }
   * new UriTemplate('search{?q,lang}').match('search?lang=en&q=a%20b'); // { lang: 'en', q: 'a b' }
   * ```
   */
  match(uri: string): UriTemplateMatch | undefined {
    if (typeof uri !== 'string' || uri.length > this.#maxUriLength) return undefined;
    const bindings = new Bindings();
    let position = 0;
    for (let p = 0; p < this.#parts.length; p++) {
      const part = this.#parts[p]!;
      if (part.kind === 'literal') {
        if (!uri.startsWith(part.text, position)) return undefined;
        position += part.text.length;
        continue;
      }
      const end = expressionEnd(uri, position, part, this.#boundaries[p]!);
      if (end < position || !matchExpression(part, uri.slice(position, end), bindings)) return undefined;
      position = end;
    }
    return position === uri.length ? bindings.toRecord() : undefined;
  }

  /**
   * The template text.
   *
   * @example
   * ```ts
   * String(new UriTemplate('file:///{+path}')); // 'file:///{+path}'
   * ```
   */
  toString(): string {
    return this.template;
  }
}

function positiveLimit(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`URI template limits must be positive integers (got ${value})`);
  }
  return value;
}

/** RFC 6570 section 2.3: empty lists, and maps with no defined member, count as undefined. */
function isDefinedValue(value: UriTemplateValue | null): value is string | string[] | Record<string, string> {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.some((item) => item !== undefined && item !== null);
  return Object.values(value).some((item) => item !== undefined && item !== null);
}
