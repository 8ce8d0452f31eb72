/**
 * Against a host: each server with its state (starting, ready, failed with the reason,
 * restarting), and the host's policy decisions as they happen (its audit events).
 * @module
 */

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
 * The host panel.
 *
 * @example
 * ```tsx
 * <HostPanel servers={servers} audit={events} />
 * ```
 */
export function HostPanel(props: {
  servers: HostServer[];
  audit: any[];
  tools: { name: string; server?: string; original?: string }[];
}) {
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
