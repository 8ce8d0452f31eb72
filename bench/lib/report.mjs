/**
 * Turns recorded samples into medians, ratios and target verdicts; prints the table and builds
 * results.json.
 * @module
 */
import { median, medianFields } from './stats.mjs';
import { describeTarget, meetsTarget, TARGETS } from './targets.mjs';

/**
 * @typedef {{ subject?: string, reference?: string, baseline?: string }} Roles implementation ids by role
 */

/**
 * Medians per implementation, ratios between roles, and target verdicts for every row.
 * @param {import('./runner.mjs').RowRecord[]} records
 * @param {Roles} roles
 * @example
 * const rows = summarize(records, { subject: 'mcpkit', reference: 'sdk', baseline: 'bare' });
 */
export function summarize(records, roles) {
  const subjectMedians = subjectMediansByRow(records, roles);
  return records.map(({ row, group, impls }) => {
    /** @type {Record<string, any>} */
    const values = {};
    for (const [id, record] of impls) {
      const extras = medianFields(record.samples.map(({ value, ...rest }) => rest));
      values[id] = {
        median: record.samples.length > 0 ? median(record.samples.map((sample) => sample.value)) : null,
        samples: record.samples.map((sample) => sample.value),
        extras,
        errors: record.errors,
        warnings: [...record.warnings],
        notes: [...record.notes],
      };
    }
    const ratio = (a, b) => quotient(a && values[a]?.median, b && values[b]?.median);
    const ratios = {
      subjectToReference: ratio(roles.subject, roles.reference),
      subjectToBaseline: ratio(roles.subject, roles.baseline),
      referenceToBaseline: ratio(roles.reference, roles.baseline),
    };
    const targets = TARGETS.filter((target) => target.row === row.id).map((target) => {
      const crossRow = target.against === 'row';
      const otherId = crossRow
        ? `${roles.subject} ${target.otherRow}`
        : target.against === 'absolute'
          ? row.unit
          : roles[target.against];
      const value = crossRow
        ? quotient(subjectMedians.get(row.id), subjectMedians.get(target.otherRow))
        : target.against === 'absolute'
          ? (subjectMedians.get(row.id) ?? null)
          : target.against === 'reference'
            ? ratios.subjectToReference
            : ratios.subjectToBaseline;
      const status = value === null ? 'n/a' : meetsTarget(target, value) ? 'PASS' : 'MISS';
      return {
        against: target.against,
        otherId,
        min: target.min,
        max: target.max,
        ratio: value,
        status,
        text: describeTarget(target, otherId ?? target.against),
      };
    });
    return {
      id: row.id,
      group: group.id,
      label: row.label,
      unit: row.unit,
      better: row.better,
      values,
      ratios,
      targets,
    };
  });
}

/**
 * The subject's median per row id (for targets that compare two rows of the subject), `null` where
 * it has no sample.
 * @param {import('./runner.mjs').RowRecord[]} records
 * @param {Roles} roles
 */
function subjectMediansByRow(records, roles) {
  const medians = new Map();
  for (const { row, impls } of records) {
    const own = roles.subject ? impls.get(roles.subject) : undefined;
    medians.set(row.id, own && own.samples.length > 0 ? median(own.samples.map((s) => s.value)) : null);
  }
  return medians;
}

/**
 * `top / bottom`, or `null` when either is missing or the bottom is 0.
 * @param {number | null | undefined} top
 * @param {number | null | undefined} bottom
 */
function quotient(top, bottom) {
  return typeof top === 'number' && typeof bottom === 'number' && bottom !== 0 ? top / bottom : null;
}

/**
 * @param {number | null | undefined} value
 * @param {string} unit
 */
function formatValue(value, unit) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  if (unit === 'calls/s' || unit === 'req/s' || unit === 'pkgs')
    return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** @param {number | null} value */
function formatRatio(value) {
  return typeof value === 'number' ? `${value.toFixed(2)}×` : '—';
}

/**
 * The result table as text.
 * @param {ReturnType<typeof summarize>} rows
 * @param {string[]} implIds column order
 * @param {Roles} roles
 * @example
 * console.log(renderTable(rows, ['mcpkit', 'sdk', 'bare'], roles));
 */
export function renderTable(rows, implIds, roles) {
  const subject = roles.subject ?? 'subject';
  const header = [
    'scenario',
    'unit',
    ...implIds,
    `${subject}/${roles.reference ?? 'ref'}`,
    `${subject}/${roles.baseline ?? 'base'}`,
    `${roles.reference ?? 'ref'}/${roles.baseline ?? 'base'}`,
    'targets',
  ];
  const lines = rows.map((row) => [
    row.id,
    row.unit,
    ...implIds.map((id) => {
      const value = row.values[id];
      if (!value) return '—';
      if (value.errors.length > 0 && value.median === null) return 'ERROR';
      return formatValue(value.median, row.unit) + (value.warnings.length > 0 ? ' ⚠' : '');
    }),
    formatRatio(row.ratios.subjectToReference),
    formatRatio(row.ratios.subjectToBaseline),
    formatRatio(row.ratios.referenceToBaseline),
    row.targets
      .map(
        (target) =>
          `${target.status} ${target.text}${target.ratio === null ? '' : ` (${formatRatio(target.ratio)})`}`,
      )
      .join('; '),
  ]);
  const table = [header, ...lines];
  const widths = header.map((_, column) => Math.max(...table.map((line) => String(line[column]).length)));
  const numeric = (column) => column >= 2 && column < header.length - 1;
  const render = (line) =>
    line
      .map((cell, column) =>
        numeric(column) ? String(cell).padStart(widths[column]) : String(cell).padEnd(widths[column]),
      )
      .join('  ')
      .trimEnd();
  return [render(header), widths.map((width) => '─'.repeat(width)).join('  '), ...lines.map(render)].join(
    '\n',
  );
}

/**
 * Problems that make the run fail, and the ones that are only reported.
 * @param {ReturnType<typeof summarize>} rows
 * @param {Roles} roles
 * @param {{ assert: boolean }} options
 */
export function verdict(rows, roles, { assert }) {
  const failures = [];
  const reported = [];
  for (const row of rows) {
    for (const [id, value] of Object.entries(row.values)) {
      for (const error of value.errors) failures.push(`${row.id} ${id}: ${error}`);
      for (const warning of value.warnings) {
        // The reference's own warnings (e.g. the SDK's drain-listener leak) are a finding, not our failure.
        (id === roles.reference ? reported : failures).push(`${row.id} ${id} printed a warning: ${warning}`);
      }
      for (const note of value.notes) reported.push(`${row.id} ${id}: ${note}`);
    }
    for (const target of row.targets) {
      if (target.status !== 'MISS') continue;
      (assert ? failures : reported).push(`${row.id}: MISS ${target.text} (${formatRatio(target.ratio)})`);
    }
  }
  return { failures: [...new Set(failures)], reported: [...new Set(reported)] };
}
