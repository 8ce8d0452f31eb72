/**
 * Record and replay in the protocol log: save this session's exchanges to a file, and replay a
 * saved one against the server now connected (or, against a host, each exchange on the server it
 * went to), each answer compared field by field.
 * @module
 */
import { exchangeLabel, parseSession, type ReplayReport, recordSession } from '@mcpkit/console/replay';
import { useState } from 'preact/hooks';
import { ErrorAlert, JsonView } from './common.js';
import { DiffView } from './DiffView.js';
import { downloadFile } from './download.js';
import type { LogEntry } from './logEntry.js';
import { replayInPage } from './session.js';

/** The ignore paths a person typed: separated by commas or new lines. */
function ignorePaths(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((path) => path.trim())
    .filter(Boolean);
}

/**
 * The Save and Replay controls, and what a replay found.
 *
 * @example
 * ```tsx
 * <SessionTools entries={entries} target={target} protocolVersion="2025-11-25" host={false} />
 * ```
 */
export function SessionTools(props: {
  entries: LogEntry[];
  target: string;
  protocolVersion?: string | undefined;
  host: boolean;
}) {
  const [report, setReport] = useState<ReplayReport>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [ignore, setIgnore] = useState('');
  const save = () => {
    const session = recordSession(props.entries, props.target, props.protocolVersion, props.host);
    downloadFile('mcpkit-session.json', JSON.stringify(session, null, 2), 'application/json');
  };
  const replay = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setReport(undefined);
    try {
      setReport(await replayInPage(parseSession(await file.text()), ignorePaths(ignore), props.host));
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="session" aria-labelledby="session-heading">
      <h3 id="session-heading">Record and replay</h3>
      <div class="actions">
        <button type="button" onClick={save}>
          Save session
        </button>
        <div class="field">
          <label for="replay-ignore">Ignore paths (comma-separated)</label>
          <input
            id="replay-ignore"
            value={ignore}
            placeholder="structuredContent.at, content[*]._meta"
            onInput={(event) => setIgnore(event.currentTarget.value)}
          />
        </div>
        <label for="replay-file">Replay a saved session</label>
        <input
          id="replay-file"
          type="file"
          accept="application/json,.json"
          disabled={busy}
          onChange={(event) => void replay(event.currentTarget.files?.[0])}
        />
      </div>
      <ErrorAlert error={error} />
      {report ? <ReplayResult report={report} /> : null}
    </section>
  );
}

function ReplayResult({ report }: { report: ReplayReport }) {
  const { changed, total, outcomes } = report;
  return (
    <div>
      <p role="status" class={changed === 0 ? 'ok' : 'error'}>
        {changed === 0
          ? `All ${total} answers are the same as recorded.`
          : `${changed} of ${total} answers changed.`}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.map((outcome, index) => (
            <tr key={index}>
              <td>{exchangeLabel(outcome.exchange)}</td>
              <td>
                {outcome.same ? (
                  outcome.ignored > 0 ? (
                    `same (${outcome.ignored} ignored)`
                  ) : (
                    'same'
                  )
                ) : (
                  <details>
                    <summary>
                      changed:{' '}
                      {outcome.differences.map((difference) => difference.path || '(all)').join(', ')}
                    </summary>
                    <DiffView differences={outcome.differences} before="Recorded" after="Now" />
                    <h4>Recorded</h4>
                    <JsonView value={outcome.exchange.result ?? { error: outcome.exchange.error }} />
                    <h4>Now</h4>
                    <JsonView value={outcome.now.result ?? { error: outcome.now.error }} />
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
