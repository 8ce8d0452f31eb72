/**
 * Copy-on-write helpers of the revision codecs: each returns its input when there is nothing to
 * change, and copies only the objects on the path to a change. Plus the text a codec puts in
 * place of what a revision cannot carry.
 * @module
 */
import { isRecord } from '../shared.js';

/** A JSON object as the codecs see it. */
export type Json = Record<string, unknown>;

export function without(object: Json, keys: readonly string[]): Json {
  let found = false;
  for (const key of keys) {
    if (Object.hasOwn(object, key)) {
      found = true;
      break;
    }
  }
  if (!found) return object;
  const copy: Json = {};
  for (const key of Object.keys(object)) {
    if (!keys.includes(key)) copy[key] = object[key];
  }
  return copy;
}

/** Sets (or, with `undefined`, removes) one member. */
export function patch(object: Json, key: string, value: unknown): Json {
  if (object[key] === value) return object;
  if (value === undefined) return without(object, [key]);
  return { ...object, [key]: value };
}

export function mapList(list: unknown, adapt: (item: unknown) => unknown): unknown {
  if (!Array.isArray(list)) return list;
  let copy: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const adapted = adapt(item);
    if (copy === undefined && adapted !== item) copy = list.slice(0, i);
    copy?.push(adapted);
  }
  return copy ?? list;
}

export function patchList(object: Json, key: string, adapt: (item: unknown) => unknown): Json {
  return patch(object, key, mapList(object[key], adapt));
}

export function patchObject(object: Json, key: string, adapt: (value: Json) => Json): Json {
  const value = object[key];
  return isRecord(value) ? patch(object, key, adapt(value)) : object;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Json)[key], (b as Json)[key]));
}

export function textBlock(text: string, annotations: unknown): Json {
  return annotations === undefined ? { type: 'text', text } : { type: 'text', text, annotations };
}

export function describeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * A value of unknown shape as text, without throwing: `String()` throws on an object without a
 * prototype (`{"__proto__": null}` off the wire) and on one whose `toString` throws.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
  return describeJson(value) || typeof value;
}
