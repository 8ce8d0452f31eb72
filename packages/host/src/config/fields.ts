/**
 * Checked reads of one entry's fields; each failure names the entry (`where`) and the field.
 * @module
 */
import { HostConfigError } from '../errors.js';

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or `undefined` when absent. */
export function optionalString(
  where: string,
  entry: Record<string, unknown>,
  key: string,
): string | undefined {
  const value = entry[key];
  if (value === undefined || typeof value === 'string') return value;
  throw new HostConfigError(`${where}: "${key}" must be a string`);
}

/** A boolean field, `false` when absent. */
export function optionalBoolean(where: string, entry: Record<string, unknown>, key: string): boolean {
  const value = entry[key];
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw new HostConfigError(`${where}: "${key}" must be true or false`);
}

/** A positive number field, or `undefined` when absent. */
export function optionalPositive(
  where: string,
  entry: Record<string, unknown>,
  key: string,
): number | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new HostConfigError(`${where}: "${key}" must be a positive number`);
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
