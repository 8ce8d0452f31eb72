/**
 * Small pieces every panel uses: a JSON view, a list of validation issues and a failure shown.
 * @module
 */

/**
 * A JSON value, pretty-printed.
 *
 * @example
 * ```tsx
 * <JsonView value={{ a: 1 }} />
 * ```
 */
export function JsonView({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/**
 * Validation issues, announced to screen readers.
 *
 * @example
 * ```tsx
 * <Issues issues={[{ path: '/a', message: 'must be string' }]} title="Invalid" />
 * ```
 */
export function Issues(props: { issues: readonly { path: string; message: string }[]; title: string }) {
  if (props.issues.length === 0) return null;
  return (
    <div role="alert" class="issues">
      <strong>{props.title}:</strong>
      <ul>
        {props.issues.map((issue, index) => (
          <li key={index}>
            <code>{issue.path || '(root)'}</code> {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A failure to show, announced to screen readers; nothing when there is none.
 *
 * @example
 * ```tsx
 * <ErrorAlert error="The server is not connected" />
 * ```
 */
export function ErrorAlert({ error }: { error: string | undefined | null }) {
  if (!error) return null;
  return (
    <p role="alert" class="error">
      {error}
    </p>
  );
}
