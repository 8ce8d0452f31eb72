/**
 * A protocol log entry, as the backend's `log` events carry it.
 * @module
 */

/**
 * One logged message, as the backend sends it.
 *
 * @example
 * ```ts
 * const entry: LogEntry = { seq: 1, at: 0, dir: 'out', size: 40, method: 'ping', id: 1, message: {} };
 * ```
 */
export interface LogEntry {
  seq: number;
  at: number;
  dir: 'out' | 'in';
  server?: string;
  size: number;
  method?: string;
  id?: string | number;
  durationMs?: number;
  message: any;
}
