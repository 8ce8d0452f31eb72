/**
 * A field-by-field diff as a table: each path added, removed or changed, with the value before and
 * after (what a replay found against the recording, or what one revision answered against the other).
 * @module
 */
import type { Difference } from '@mcpkit/console/replay';

/** Values longer than this are cut in the table (the whole answers are shown beside it). */
const MAX_SHOWN = 300;
/** Rows shown at most; past it, how many more there are (a list replaced wholesale can differ everywhere). */
const MAX_ROWS = 200;

function shown(value: unknown): string {
  const text = value === undefined ? '' : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/**
 * The differences, or nothing when there are none.
 *
 * @example
 * ```tsx
 * <DiffView differences={outcome.differences} before="Recorded" after="Now" />
 * ```
 */
export function DiffView(props: { differences: readonly Difference[]; before: string; after: string }) {
  if (props.differences.length === 0) return null;
  const hidden = props.differences.length - MAX_ROWS;
  return (
    <table class="diff">
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">Change</th>
          <th scope="col">{props.before}</th>
          <th scope="col">{props.after}</th>
        </tr>
      </thead>
      <tbody>
        {props.differences.slice(0, MAX_ROWS).map((difference, index) => (
          <tr key={index} class={`diff-${difference.change}`}>
            <td>
              <code>{difference.path || '(the whole answer)'}</code>
            </td>
            <td>{difference.change}</td>
            <td>
              <code>{shown(difference.before)}</code>
            </td>
            <td>
              <code>{shown(difference.after)}</code>
            </td>
          </tr>
        ))}
        {hidden > 0 ? (
          <tr>
            <td colSpan={4} class="muted">
              and {hidden} more
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
