/**
 * The roots the person lets the server see: `file://` folders added and removed here; the server
 * reads them with `roots/list` (and under 2025-11-25 is told each time they change, with
 * `notifications/roots/list_changed`). Against a host they are the host's roots, which every
 * server sees (a server configured with roots of its own sees only those within them).
 * @module
 */
import { useState } from 'preact/hooks';
import { ApiError, call } from './api.js';
import { ErrorAlert } from './common.js';

/**
 * One root.
 *
 * @example
 * ```ts
 * const root: Root = { uri: 'file:///home/me/project', name: 'project' };
 * ```
 */
export interface Root {
  uri: string;
  name?: string;
}

/**
 * The roots panel.
 *
 * @example
 * ```tsx
 * <RootsPanel roots={state.roots ?? []} host={false} />
 * ```
 */
export function RootsPanel({ roots, host }: { roots: Root[]; host: boolean }) {
  const [uri, setUri] = useState('file:///');
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const save = async (next: Root[]) => {
    try {
      await call('setRoots', { roots: next });
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <section aria-labelledby="roots-heading">
      <h2 id="roots-heading">Roots</h2>
      <p class="muted">
        {host
          ? "The folders the host's servers may see (a server configured with roots sees only those within them)."
          : 'The folders this server may see.'}
      </p>
      {roots.length === 0 ? <p>No roots: the server sees none.</p> : null}
      <ul>
        {roots.map((root) => (
          <li key={root.uri}>
            <code>{root.uri}</code> {root.name ? `(${root.name})` : ''}{' '}
            <button type="button" onClick={() => save(roots.filter((other) => other.uri !== root.uri))}>
              Remove {root.name ?? root.uri}
            </button>
          </li>
        ))}
      </ul>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          void save([...roots.filter((other) => other.uri !== uri), name ? { uri, name } : { uri }]);
        }}
      >
        <div class="field">
          <label for="root-uri">Folder URI</label>
          <input
            id="root-uri"
            type="url"
            value={uri}
            onInput={(event) => setUri(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="root-name">Name</label>
          <input id="root-name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        <button type="submit">Add root</button>
      </form>
      <ErrorAlert error={error} />
    </section>
  );
}
