/**
 * Parsing of RFC 6570 URI templates into literal and expression parts, the form the matcher scans
 * (`uriTemplateMatch.ts`); expansion itself is the `url-template` library's.
 * @module
 */

import { parseTemplate } from 'url-template';

/** Raised for a malformed template or a value that cannot be expanded. */
export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
}

export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

export interface OperatorRules {
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

export interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** Maximum value length from a `:N` prefix modifier. */
  readonly maxLength: number | undefined;
}

export interface LiteralPart {
  readonly kind: 'literal';
  /** The literal as it appears in an expanded URI (encoded the way the expansion library does). */
  readonly text: string;
}

export interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly rules: OperatorRules;
  readonly varSpecs: readonly VarSpec[];
}

export type TemplatePart = LiteralPart | ExpressionPart;

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
export function parseParts(template: string): TemplatePart[] {
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
