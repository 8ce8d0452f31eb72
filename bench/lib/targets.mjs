/**
 * The goals mcpkit is held to, as ratios within one run: `subject / reference` (mcpkit / SDK) or
 * `subject / baseline` (mcpkit / bare Node). `min` for higher-is-better rows, `max` for lower-is-better.
 * @module
 */

/**
 * @typedef {object} Target
 * @property {string} row
 * @property {'reference' | 'baseline' | 'row' | 'absolute'} against `row`: the subject's own median on
 *   `otherRow`; `absolute`: the subject's median itself, in the row's unit
 * @property {string} [otherRow] with `against: 'row'`
 * @property {number} [min]
 * @property {number} [max]
 */

/** @type {Target[]} */
export const TARGETS = [
  { row: 'inmemory-1', against: 'reference', min: 4 },
  { row: 'inmemory-16', against: 'reference', min: 4 },
  { row: 'stdio-1', against: 'reference', min: 2.5 },
  { row: 'stdio-1', against: 'baseline', min: 0.75 },
  { row: 'stdio-16', against: 'reference', min: 4 },
  { row: 'http-json-50', against: 'reference', min: 3 },
  { row: 'http-json-50', against: 'baseline', min: 0.6 },
  { row: 'http-stateless-50', against: 'reference', min: 3 },
  // Revision 2026-07-28 (issue 16): the sdk column is SDK v2's createMcpHandler; and no slower
  // than mcpkit's own 2025 stateless path on the same handler.
  { row: 'http-2026-50', against: 'reference', min: 3 },
  { row: 'http-2026-50', against: 'row', otherRow: 'http-stateless-50', min: 1 },
  { row: 'httpclient-16', against: 'reference', min: 3 },
  { row: 'httpclient-1', against: 'baseline', min: 0.8 },
  { row: 'httpclient-16', against: 'baseline', min: 0.8 },
  // Issue 34: the gateway against the gateways people run instead (each a row of the subject's
  // gateway-peers run): at least 3x the best peer's calls/s at 16 in flight, at most half its p50.
  { row: 'gateway-peers-mcpkit-16', against: 'row', otherRow: 'gateway-peers-mcp-proxy-16', min: 3 },
  { row: 'gateway-peers-mcpkit-16', against: 'row', otherRow: 'gateway-peers-supergateway-16', min: 3 },
  { row: 'gateway-peers-p50-mcpkit', against: 'row', otherRow: 'gateway-peers-p50-mcp-proxy', max: 0.5 },
  { row: 'gateway-peers-p50-mcpkit', against: 'row', otherRow: 'gateway-peers-p50-supergateway', max: 0.5 },
  { row: 'memory-session', against: 'reference', max: 0.25 },
  { row: 'import-server', against: 'reference', max: 1 / 3 },
  // The stdio bundle's ⅓-of-SDK target was retired by issue 34: serving 2026-07-28 from the same
  // definition is the default (SDK v2 serves both too); scripts/bundle-budgets.json keeps it from growing.
  // Issue 29: a gateway session costs no upstream processes and little memory; a slow or noisy
  // upstream does not hold the others up.
  { row: 'gateway-first-list', against: 'absolute', max: 3 },
  { row: 'gateway-procs-10', against: 'row', otherRow: 'gateway-procs-1', max: 1 },
  { row: 'gateway-session-rss', against: 'absolute', max: 1 },
  { row: 'gateway-quiet-p50', against: 'row', otherRow: 'gateway-quiet-alone-p50', max: 2 },
  { row: 'gateway-quiet-p99', against: 'row', otherRow: 'gateway-quiet-alone-p99', max: 2 },
];

/**
 * The target as text, e.g. "≥2.5× sdk" or "≤0.33× sdk".
 * @param {Target} target
 * @param {string} otherId
 * @example
 * describeTarget({ row: 'stdio-1', against: 'reference', min: 2.5 }, 'sdk'); // '≥2.5× sdk'
 */
export function describeTarget(target, otherId) {
  const bound = target.min ?? target.max ?? Number.NaN;
  const shown = Number.isInteger(bound * 100) ? String(bound) : bound.toFixed(2);
  if (target.against === 'absolute') return `${target.min !== undefined ? '≥' : '≤'}${shown} ${otherId}`;
  return `${target.min !== undefined ? '≥' : '≤'}${shown}× ${otherId}`;
}

/**
 * Whether `ratio` meets `target`.
 * @param {Target} target
 * @param {number} ratio
 * @example
 * meetsTarget({ row: 'x', against: 'reference', min: 2 }, 2.1); // true
 */
export function meetsTarget(target, ratio) {
  if (target.min !== undefined) return ratio >= target.min;
  if (target.max !== undefined) return ratio <= target.max;
  return false;
}
