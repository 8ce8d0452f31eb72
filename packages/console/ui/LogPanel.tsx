/**
 * The protocol log: every JSON-RPC message both ways, with its time, size and (for a response) how
 * long its request took; filtered by text, direction and server; each message shown in full and,
 * for a request `mcpkit` can send, as the equivalent command line; all of it, or what the filters
 * show, exported as a JSON Lines file.
 * @module
 */
import { useMemo, useState } from 'preact/hooks';
import { commandFor } from './commandLine.js';
import { JsonView } from './common.js';
import { downloadFile } from './download.js';
import type { LogEntry } from './logEntry.js';
import { SessionTools } from './SessionTools.js';

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** What a row says the message is: its method, or (a response) the result or error of an id. */
function summary(entry: LogEntry): string {
  if (entry.method) return entry.id === undefined ? entry.method : `${entry.method} #${entry.id}`;
  const failed = typeof entry.message === 'object' && entry.message?.error;
  return `${failed ? 'error' : 'result'} #${entry.id ?? '?'}`;
}

/** Entries as JSON Lines: one entry (time, direction, size, the message…) per line. */
function exportLog(entries: readonly LogEntry[], name: string): void {
  downloadFile(name, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), 'application/jsonl');
}

/**
 * The protocol log panel.
 *
 * @example
 * ```tsx
 * <LogPanel entries={entries} target="http://127.0.0.1:3000/mcp" host={false} />
 * ```
 */
export function LogPanel(props: {
  entries: LogEntry[];
  target: string;
  /** Against a host: the session is saved per server, and replayed through the host's catalogue. */
  host: boolean;
  protocolVersion?: string | undefined;
}) {
  const [text, setText] = useState('');
  const [direction, setDirection] = useState<'all' | 'out' | 'in'>('all');
  const [server, setServer] = useState('all');
  const [open, setOpen] = useState<number | undefined>();
  const servers = useMemo(
    () => [...new Set(props.entries.map((entry) => entry.server).filter(Boolean))] as string[],
    [props.entries],
  );
  const shown = props.entries.filter(
    (entry) =>
      (direction === 'all' || entry.dir === direction) &&
      (server === 'all' || entry.server === server) &&
      (text === '' || JSON.stringify(entry.message).toLowerCase().includes(text.toLowerCase())),
  );
  const first = props.entries[0]?.at ?? 0;
  const selected = props.entries.find((entry) => entry.seq === open);
  const command =
    selected && selected.dir === 'out' && selected.method
      ? commandFor(props.target, selected.message, selected.server)
      : undefined;
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Protocol log</h2>
      <SessionTools
        entries={props.entries}
        target={props.target}
        protocolVersion={props.protocolVersion}
        host={props.host}
      />
      <div class="filters">
        <div class="field">
          <label for="log-filter">Filter</label>
          <input
            id="log-filter"
            type="search"
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="log-direction">Direction</label>
          <select
            id="log-direction"
            value={direction}
            onChange={(event) => setDirection(event.currentTarget.value as 'all' | 'out' | 'in')}
          >
            <option value="all">Both ways</option>
            <option value="out">Sent</option>
            <option value="in">Received</option>
          </select>
        </div>
        {servers.length > 0 ? (
          <div class="field">
            <label for="log-server">Server</label>
            <select id="log-server" value={server} onChange={(event) => setServer(event.currentTarget.value)}>
              <option value="all">All servers</option>
              {servers.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <span class="muted" role="status">
          {shown.length} of {props.entries.length} messages
        </span>
        <button type="button" onClick={() => exportLog(props.entries, 'mcpkit-log.jsonl')}>
          Export all
        </button>
        <button type="button" onClick={() => exportLog(shown, 'mcpkit-log-filtered.jsonl')}>
          Export shown
        </button>
      </div>
      <div class="log-layout">
        <table class="log">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Way</th>
              {servers.length > 0 ? <th scope="col">Server</th> : null}
              <th scope="col">Message</th>
              <th scope="col">Size</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => (
              <tr key={entry.seq} class={entry.seq === open ? 'selected' : undefined}>
                <td>+{entry.at - first} ms</td>
                <td>
                  <span class="sr-only">{entry.dir === 'out' ? 'sent' : 'received'}</span>
                  <span aria-hidden="true">{entry.dir === 'out' ? '→' : '←'}</span>
                </td>
                {servers.length > 0 ? <td>{entry.server}</td> : null}
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-expanded={entry.seq === open}
                    onClick={() => setOpen(entry.seq === open ? undefined : entry.seq)}
                  >
                    {summary(entry)}
                  </button>
                </td>
                <td>{formatSize(entry.size)}</td>
                <td>{entry.durationMs === undefined ? '' : `${entry.durationMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {selected ? (
          <section class="log-detail" aria-label="Message detail">
            <h3>{summary(selected)}</h3>
            {command ? (
              <>
                <h4>As a command line</h4>
                <pre class="command">{command}</pre>
              </>
            ) : null}
            <JsonView value={selected.message} />
          </section>
        ) : null}
      </div>
    </section>
  );
}
