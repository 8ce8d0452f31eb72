/**
 * Record and replay in the protocol log: save this session's exchanges to a file, and replay a
 * saved one against the server now connected (or, against a host, each exchange on the server it
 * went to), each answer marked same or changed.
 * @module
 */
import { useState } from 'preact/hooks';
import { JsonView } from './common.js';
import type { LogEntry } from './logEntry.js';
import { parseSession, type ReplayOutcome, recordSession, replaySession } from './session.js';

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
  const [outcomes, setOutcomes] = useState<ReplayOutcome[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = () => {
    const session = recordSession(props.entries, props.target, props.protocolVersion, props.host);
    const url = URL.createObjectURL(
      new Blob([JSON.stringify(session, null, 2)], { type: 'application/json' }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = 'mcpkit-session.json';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const replay = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setOutcomes(undefined);
    try {
      setOutcomes(await replaySession(parseSession(await file.text()), props.host));
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const changed = outcomes?.filter((outcome) => !outcome.same).length ?? 0;
  return (
    <section class="session" aria-labelledby="session-heading">
      <h3 id="session-heading">Record and replay</h3>
      <div class="actions">
        <button type="button" onClick={save}>
          Save session
        </button>
        <label for="replay-file">Replay a saved session</label>
        <input
          id="replay-file"
          type="file"
          accept="application/json,.json"
          disabled={busy}
          onChange={(event) => void replay(event.currentTarget.files?.[0])}
        />
      </div>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {outcomes ? (
        <div>
          <p role="status" class={changed === 0 ? 'ok' : 'error'}>
            {changed === 0
              ? `All ${outcomes.length} answers are the same as recorded.`
              : `${changed} of ${outcomes.length} answers changed.`}
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Request</th>
                {props.host ? <th scope="col">Server</th> : null}
                <th scope="col">Item</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {outcomes.map((outcome, index) => (
                <tr key={index}>
                  <td>{outcome.exchange.method}</td>
                  {props.host ? <td>{outcome.exchange.server ?? ''}</td> : null}
                  <td>{String(outcome.exchange.params.name ?? outcome.exchange.params.uri ?? '')}</td>
                  <td>
                    {outcome.same ? (
                      'same'
                    ) : (
                      <details>
                        <summary>changed</summary>
                        <h4>Recorded</h4>
                        <JsonView value={outcome.exchange.result ?? { error: outcome.exchange.error }} />
                        <h4>Now</h4>
                        <JsonView value={outcome.now} />
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
