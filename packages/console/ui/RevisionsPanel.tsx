/**
 * The Both revisions tab (one server): each list (tools, resources, templates, prompts) fetched on
 * 2025-11-25 and on 2026-07-28, every page, and the diff between them item by item. A tool call,
 * a read and a prompt are compared from their own panels.
 * @module
 */
import { CompareOnBothRevisions } from './Comparison.js';

const LISTS = [
  { method: 'tools/list', what: 'tools' },
  { method: 'resources/list', what: 'resources' },
  { method: 'resources/templates/list', what: 'resource templates' },
  { method: 'prompts/list', what: 'prompts' },
] as const;

/**
 * The list comparisons.
 *
 * @example
 * ```tsx
 * <RevisionsPanel />
 * ```
 */
export function RevisionsPanel() {
  return (
    <section aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Lists on both revisions</h2>
      <p class="muted">
        Each list as a 2025-11-25 connection and a 2026-07-28 connection to the same server get it; items are
        matched by name (resources by URI). Tool calls, reads and prompts compare from their own tabs.
      </p>
      {LISTS.map(({ method, what }) => (
        <CompareOnBothRevisions key={method} label={`Compare ${what}`} method={method} params={{}} />
      ))}
    </section>
  );
}
