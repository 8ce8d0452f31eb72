/**
 * Runs scenario groups A/B-interleaved: round r runs every implementation once, in an order rotated by r,
 * so drift on the machine (thermal, noisy neighbours) hits all implementations alike. Failures and warnings
 * are recorded per row and implementation; one implementation failing does not stop the others.
 * @module
 */
import { findWarnings } from './proc.mjs';
import { rotate } from './stats.mjs';

/**
 * @typedef {object} ImplRecord
 * @property {Array<Record<string, number> & { value: number }>} samples
 * @property {string[]} errors
 * @property {Set<string>} warnings
 * @property {Set<string>} notes
 */

/**
 * @typedef {object} RowRecord
 * @property {any} row
 * @property {any} group
 * @property {Map<string, ImplRecord>} impls
 */

/** @returns {ImplRecord} */
function emptyImplRecord() {
  return { samples: [], errors: [], warnings: new Set(), notes: new Set() };
}

/**
 * @param {number} value
 * @param {string} unit
 */
function shortValue(value, unit) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  return `${value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2)} ${unit}`;
}

/**
 * @param {any[]} groups scenario groups, already filtered to those with selected rows
 * @param {any[]} impls available implementations
 * @param {any} ctx shared context (profile, paths, options, selectRows, log)
 * @returns {Promise<RowRecord[]>}
 */
export async function runGroups(groups, impls, ctx) {
  /** @type {RowRecord[]} */
  const records = [];
  for (const group of groups) {
    const rows = ctx.selectRows(group);
    if (rows.length === 0) continue;
    const participants = impls.filter((impl) => group.participates(impl));
    const groupRecords = rows.map((row) => ({
      row,
      group,
      impls: new Map(participants.map((impl) => [impl.id, emptyImplRecord()])),
    }));
    records.push(...groupRecords);
    if (participants.length === 0) continue;
    const defaultRounds = group.rounds(ctx.profile);
    const rounds = ctx.options.rounds && defaultRounds > 1 ? ctx.options.rounds : defaultRounds;
    const failed = new Set();
    ctx.log(`\n▶ ${group.title} — ${participants.map((impl) => impl.id).join(', ')}, ${rounds} round(s)`);
    for (let round = 0; round < rounds; round++) {
      for (const impl of rotate(participants, round)) {
        if (failed.has(impl.id)) continue;
        const started = Date.now();
        try {
          const { samples, stderr, notes } = await group.measure(impl, ctx, rows);
          const shown = [];
          for (const record of groupRecords) {
            const own = /** @type {ImplRecord} */ (record.impls.get(impl.id));
            for (const warning of findWarnings(stderr ?? '')) own.warnings.add(warning);
            for (const note of notes ?? []) own.notes.add(note);
            const sample = samples[record.row.id];
            if (!sample) {
              own.errors.push(`no sample for ${record.row.id}`);
              continue;
            }
            own.samples.push(sample);
            shown.push(`${record.row.id} ${shortValue(sample.value, record.row.unit)}`);
          }
          ctx.log(
            `  [${round + 1}/${rounds}] ${impl.id.padEnd(7)} ${shown.join(', ')}  (${Date.now() - started} ms)`,
          );
        } catch (error) {
          failed.add(impl.id);
          const message = String(error?.message ?? error).split('\n')[0];
          ctx.log(`  [${round + 1}/${rounds}] ${impl.id.padEnd(7)} FAILED: ${message}`);
          for (const record of groupRecords) {
            const own = /** @type {ImplRecord} */ (record.impls.get(impl.id));
            own.errors.push(message);
            for (const warning of findWarnings(error?.stderr ?? '')) own.warnings.add(warning);
          }
        }
      }
    }
  }
  return records;
}
