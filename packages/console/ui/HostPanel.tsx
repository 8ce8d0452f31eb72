/**
 * Against a host: each server with its state (starting, ready, failed with the reason,
 * restarting) and a Restart button, every state change as it happened, and the host's policy
 * decisions as they happen (its audit events).
 * @module
 */
import { useState } from 'preact/hooks';
import { ApiError, call } from './api.js';
import { ErrorAlert } from './common.js';

/**
 * One of the host's servers.
 *
 * @example
 * ```ts
 * const server: HostServer = { server: 'files', state: 'ready', restarts: 0 };
 * ```
 */
export interface HostServer {
  server: string;
  state: string;
  restarts: number;
  lastError?: string;
}

/**
 * One state change of a server, as the backend reported it.
 *
 * @example
 * ```ts
 * const change: ServerChange = { time: Date.now(), server: 'files', previous: 'ready', state: 'restarting', reason: 'exited with code 3' };
 * ```
 */
export interface ServerChange {
  time: number;
  server: string;
  previous: string;
  state: string;
  reason?: string;
  startMs?: number;
}

/**
 * The host panel.
 *
 * @example
 * ```tsx
 * <HostPanel servers={servers} audit={events} tools={tools} changes={changes} />
 * ```
 */
export function HostPanel(props: {
  servers: HostServer[];
  audit: any[];
  tools: { name: string; server?: string; original?: string }[];
  changes: ServerChange[];
}) {
  const [error, setError] = useState<string>();
  const restart = async (server: string) => {
    setError(undefined);
    try {
      await call('restartServer', { server });
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <div>
      <section aria-labelledby="servers-heading">
        <h2 id="servers-heading">Servers</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col">Restarts</th>
              <th scope="col">Reason</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {props.servers.map((server) => (
              <tr key={server.server}>
                <th scope="row">{server.server}</th>
                <td>
                  <span class={`state state-${server.state}`}>{server.state}</span>
                </td>
                <td>{server.restarts}</td>
                <td>{server.lastError ?? ''}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Restart ${server.server}`}
                    disabled={server.state === 'starting' || server.state === 'restarting'}
                    onClick={() => void restart(server.server)}
                  >
                    Restart
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ErrorAlert error={error} />
      </section>
      <section aria-labelledby="changes-heading">
        <h2 id="changes-heading">State changes</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Server</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {props.changes.map((change, index) => (
              <tr key={index}>
                <td>{new Date(change.time).toLocaleTimeString()}</td>
                <td>{change.server}</td>
                <td>{change.previous}</td>
                <td>
                  <span class={`state state-${change.state}`}>{change.state}</span>
                </td>
                <td>
                  {[change.reason, change.startMs === undefined ? '' : `started in ${change.startMs} ms`]
                    .filter(Boolean)
                    .join('; ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="catalogue-heading">
        <h2 id="catalogue-heading">Catalogue</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Server</th>
              <th scope="col">Name on the server</th>
            </tr>
          </thead>
          <tbody>
            {props.tools.map((tool) => (
              <tr key={tool.name}>
                <th scope="row">{tool.name}</th>
                <td>{tool.server}</td>
                <td>{tool.original}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading">Policy decisions</h2>
        {props.audit.length === 0 ? <p class="muted">No calls yet.</p> : null}
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Server</th>
              <th scope="col">Operation</th>
              <th scope="col">Item</th>
              <th scope="col">Decision</th>
              <th scope="col">Outcome</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {props.audit.map((event, index) => (
              <tr key={index}>
                <td>{new Date(event.time).toLocaleTimeString()}</td>
                <td>{event.server}</td>
                <td>{event.operation}</td>
                <td>{event.item}</td>
                <td>
                  <span class={`decision decision-${event.decision}`}>{event.decision}</span>
                </td>
                <td>{event.outcome}</td>
                <td>{event.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
