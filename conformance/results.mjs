/**
 * Reading and judging the conformance suite's output. Pure functions, shared by run.mjs and
 * selftest.mjs.
 *
 * Pass rule for one scenario (stricter than the suite's own exit code, see README.md):
 *   - at least one SUCCESS check (a scenario with nothing but INFO proves nothing: a client that does
 *     nothing "passes" `initialize` with zero checks);
 *   - no FAILURE check;
 *   - the suite process finished in time and wrote checks.json;
 *   - client mode: our client neither timed out nor exited non-zero;
 *   - WARNING checks do not fail a scenario unless `strictWarnings` is set; they are always printed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Scenario names from the output of `conformance list --server` (or `--client`).
 *
 * @example
 * parseScenarioList('Server scenarios:\n  - ping [2025-06-18]\n'); // ['ping']
 */
export function parseScenarioList(text) {
  const names = [];
  for (const line of text.split('\n')) {
    const match = /^\s+- (\S+)/.exec(line);
    if (match?.[1]) names.push(match[1]);
  }
  return names;
}

/**
 * Counts checks by status and keeps the messages of the FAILURE and WARNING ones.
 *
 * @example
 * summarizeChecks([{ id: 'ping', status: 'SUCCESS' }]).success; // 1
 */
export function summarizeChecks(checks) {
  const summary = { success: 0, failure: 0, warning: 0, info: 0, other: 0, failures: [], warnings: [] };
  for (const check of checks) {
    const note = () =>
      `${check.id}: ${check.errorMessage ?? check.details?.message ?? check.description ?? ''}`.trim();
    switch (check.status) {
      case 'SUCCESS':
        summary.success++;
        break;
      case 'FAILURE':
        summary.failure++;
        summary.failures.push(note());
        break;
      case 'WARNING':
        summary.warning++;
        summary.warnings.push(note());
        break;
      case 'INFO':
        summary.info++;
        break;
      default:
        summary.other++;
    }
  }
  return summary;
}

/**
 * Applies the pass rule to one scenario run.
 *
 * @param {{ checks?: object[], timedOut?: boolean, exitCode?: number | null,
 *   clientTimedOut?: boolean, clientExitCode?: number, strictWarnings?: boolean }} run
 * @returns {{ passed: boolean, reasons: string[], summary: ReturnType<typeof summarizeChecks> }}
 * @example
 * judgeScenario({ checks: [{ id: 'ping', status: 'SUCCESS' }] }).passed; // true
 * judgeScenario({ checks: [{ id: 'x', status: 'INFO' }] }).passed; // false: no SUCCESS
 */
export function judgeScenario(run) {
  const reasons = [];
  if (run.timedOut) reasons.push('scenario timed out (the suite process was killed)');
  if (!run.checks) reasons.push(`no checks.json written (suite exit code ${run.exitCode ?? 'none'})`);
  const summary = summarizeChecks(run.checks ?? []);
  if (run.checks && summary.success === 0 && summary.failure === 0) reasons.push('no SUCCESS check');
  if (summary.failure > 0) reasons.push(`${summary.failure} FAILURE check(s)`);
  if (run.strictWarnings && summary.warning > 0)
    reasons.push(`${summary.warning} WARNING check(s) (--strict)`);
  if (run.clientTimedOut) reasons.push('the client under test timed out');
  if (run.clientExitCode !== undefined && run.clientExitCode !== 0) {
    reasons.push(`the client under test exited with code ${run.clientExitCode}`);
  }
  return { passed: reasons.length === 0, reasons, summary };
}

/**
 * What the suite printed about the client process in client mode (it does not store it in
 * checks.json): whether it timed out and its exit code.
 *
 * @example
 * parseClientOutcome('⚠️  CLIENT EXITED WITH ERROR (code 2) - Test may be incomplete');
 * // { clientTimedOut: false, clientExitCode: 2 }
 */
export function parseClientOutcome(suiteOutput) {
  // The suite prints this marker only when the scenario does not expect the client to fail.
  const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(suiteOutput);
  return {
    clientTimedOut: suiteOutput.includes('CLIENT TIMED OUT'),
    clientExitCode: exited?.[1] === undefined ? 0 : Number(exited[1]),
  };
}

/**
 * Finds the checks.json the suite wrote somewhere below `dir` (it adds a timestamped folder) and
 * parses it; undefined when there is none.
 *
 * @example
 * readChecks('conformance/.results/run-1/server/ping'); // [{ id: 'ping', status: 'SUCCESS', ... }]
 */
export function readChecks(dir) {
  if (!existsSync(dir)) return undefined;
  const entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  const file = entries.find((entry) => entry === 'checks.json' || entry.endsWith('/checks.json'));
  if (!file) return undefined;
  const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  return Array.isArray(parsed) ? parsed : undefined;
}

/**
 * Folder (below `dir`) holding the suite's files for one scenario, or undefined.
 *
 * @example
 * resultFolder('conformance/.results/run-1/client/sse-retry'); // '.../sse-retry-2025-...'
 */
export function resultFolder(dir) {
  if (!existsSync(dir)) return undefined;
  const entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  const file = entries.find((entry) => entry === 'checks.json' || entry.endsWith('/checks.json'));
  return file ? join(dir, file, '..') : undefined;
}
