/**
 * Matching a URI against parsed template parts, the inverse of expansion RFC 6570 leaves
 * undefined: one left-to-right scan with no regular expressions, linear in the URI.
 * @module
 */

import type { ExpressionPart, Operator, TemplatePart, VarSpec } from './uriTemplateParse.js';

/** Variables extracted by `UriTemplate.match`, percent-decoded. */
export type UriTemplateMatch = Record<string, string | string[]>;

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
export class Bindings {
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
export function matchExpression(part: ExpressionPart, region: string, bindings: Bindings): boolean {
  const { first, named } = part.rules;
  if (first === '') return matchPositional(part, region, bindings);
  if (region === '') return true;
  if (region[0] !== first) return false;
  const body = region.slice(1);
  return named ? matchNamed(part, body, bindings) : matchPositional(part, body, bindings);
}

/** What ends an expression's text in a URI, worked out once per template. */
export interface Boundary {
  /** The first literal after the expression ('' for none), with any expressions in between. */
  readonly literal: string;
  /** Whether that literal ends the template, so it is anchored to the end of the URI. */
  readonly literalIsFinal: boolean;
  /** Operator character of a directly following expression ('' for none). */
  readonly nextFirst: string;
}

/** The boundary of every part (only used for expressions), computed right to left. */
export function boundaries(parts: readonly TemplatePart[]): Boundary[] {
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
export function expressionEnd(uri: string, start: number, part: ExpressionPart, boundary: Boundary): number {
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
