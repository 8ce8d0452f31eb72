/**
 * Checked reads of one entry's fields; each failure names the entry (`where`) and the field.
 * @module
 */
import { isRecord } from '@mcpkit/core/internal';
import { HostConfigError } from '../errors.js';

// One copy of the check for every package (@mcpkit/core's shared helpers); re-exported so that the
// config readers import their field helpers from one place.
export { isRecord };

/** One entry of the configuration, already known to be an object. */
type Entry = Record<string, unknown>;

/** `entry[key]` when absent or passing `test`; otherwise a {@link HostConfigError} saying it `must be …`. */
function optionalField<T>(
  where: string,
  entry: Entry,
  key: string,
  test: (value: unknown) => value is T,
  mustBe: string,
): T | undefined {
  const value = entry[key];
  if (value === undefined || test(value)) return value as T | undefined;
  throw new HostConfigError(`${where}: "${key}" must be ${mustBe}`);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** A string field, or `undefined` when absent. */
export function optionalString(where: string, entry: Entry, key: string): string | undefined {
  return optionalField(where, entry, key, isString, 'a string');
}

/** A boolean field, `false` when absent. */
export function optionalBoolean(where: string, entry: Entry, key: string): boolean {
  return optionalField(where, entry, key, isBoolean, 'true or false') === true;
}

/** A positive number field, or `undefined` when absent. */
export function optionalPositive(where: string, entry: Entry, key: string): number | undefined {
  return optionalField(where, entry, key, isPositive, 'a positive number');
}

/** An array of strings, empty when absent. */
export function stringList(where: string, value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new HostConfigError(`${where}: "${key}" must be an array of strings`);
}

/** An object of strings (numbers and booleans are written as text), empty when absent. */
export function stringRecord(where: string, value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new HostConfigError(`${where}: "${key}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') out[name] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[name] = String(item);
    else throw new HostConfigError(`${where}: "${key}.${name}" must be a string`);
  }
  return out;
}
