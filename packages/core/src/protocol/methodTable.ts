/**
 * Which message exists in which revision, in which direction: one range per method and
 * direction. This replaces "since revision X" with `since..until`, because 2026-07-28 *removes*
 * methods (`initialize`, `ping`, `logging/setLevel`, server-to-client requests, …). Routers and
 * capability checks consult it; it is the one place that knows (docs/2026-07-28.md §3).
 * @module
 */
import { ALL_REVISIONS, type Revision } from './revisions.js';

/** Who sends the message: `c2s` client to server, `s2c` server to client. */
export type MethodDirection = 'c2s' | 's2c';

/** One row of the table: the message exists from `since` to `until` (inclusive; open when absent). */
export interface MethodRange {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: MethodDirection;
  readonly since: Revision;
  readonly until?: Revision;
}

const FIRST = '2024-11-05';
const LAST_INIT = '2025-11-25';
const MODERN = '2026-07-28';

function rows(
  kind: MethodRange['kind'],
  direction: MethodDirection,
  since: Revision,
  until: Revision | undefined,
  methods: readonly string[],
): MethodRange[] {
  return methods.map((method) =>
    until === undefined ? { method, kind, direction, since } : { method, kind, direction, since, until },
  );
}

/**
 * Every message of every revision mcpkit speaks. Extension methods (`tasks/*` under 2026-07-28,
 * vendor methods) are not listed: the table only answers for the core protocol.
 *
 * @example
 * ```ts
 * METHOD_TABLE.find((row) => row.method === 'initialize')?.until; // '2025-11-25'
 * ```
 */
export const METHOD_TABLE: readonly MethodRange[] = Object.freeze([
  ...rows('request', 'c2s', FIRST, undefined, [
    'tools/list',
    'tools/call',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'prompts/list',
    'prompts/get',
    'completion/complete',
  ]),
  ...rows('request', 'c2s', FIRST, LAST_INIT, [
    'initialize',
    'ping',
    'resources/subscribe',
    'resources/unsubscribe',
    'logging/setLevel',
  ]),
  ...rows('request', 'c2s', MODERN, undefined, ['server/discover', 'subscriptions/listen']),
  ...rows('request', 's2c', FIRST, LAST_INIT, ['ping', 'sampling/createMessage', 'roots/list']),
  ...rows('request', 's2c', '2025-06-18', LAST_INIT, ['elicitation/create']),
  ...rows('request', 'c2s', LAST_INIT, LAST_INIT, [
    'tasks/get',
    'tasks/result',
    'tasks/list',
    'tasks/cancel',
  ]),
  ...rows('request', 's2c', LAST_INIT, LAST_INIT, [
    'tasks/get',
    'tasks/result',
    'tasks/list',
    'tasks/cancel',
  ]),
  ...rows('notification', 'c2s', FIRST, LAST_INIT, [
    'notifications/initialized',
    'notifications/cancelled',
    'notifications/progress',
    'notifications/roots/list_changed',
  ]),
  ...rows('notification', 'c2s', LAST_INIT, LAST_INIT, ['notifications/tasks/status']),
  ...rows('notification', 's2c', FIRST, undefined, [
    'notifications/cancelled',
    'notifications/progress',
    'notifications/message',
    'notifications/resources/updated',
    'notifications/resources/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
  ]),
  ...rows('notification', 's2c', LAST_INIT, LAST_INIT, [
    'notifications/elicitation/complete',
    'notifications/tasks/status',
  ]),
  ...rows('notification', 's2c', MODERN, undefined, ['notifications/subscriptions/acknowledged']),
]);

/**
 * The identifier of the tasks extension (SEP-2663), which replaces the 2025-11-25 tasks under
 * 2026-07-28: declared under `capabilities.extensions` by both sides.
 *
 * @example
 * ```ts
 * const capabilities = { extensions: { [TASKS_EXTENSION]: {} } };
 * ```
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Messages that official extensions define, with the revisions they exist in. Kept apart from
 * {@link METHOD_TABLE}, which mirrors the core schemas; both feed {@link methodExists}. The tasks
 * extension reuses `tasks/get` and `tasks/cancel` of 2025-11-25 with another wire, adds
 * `tasks/update`, and drops `tasks/result` and `tasks/list`.
 *
 * @example
 * ```ts
 * EXTENSION_METHOD_TABLE.filter((row) => row.extension === TASKS_EXTENSION).map((row) => row.method);
 * ```
 */
export const EXTENSION_METHOD_TABLE: readonly (MethodRange & { readonly extension: string })[] =
  Object.freeze(
    [
      ...rows('request', 'c2s', MODERN, undefined, ['tasks/get', 'tasks/update', 'tasks/cancel']),
      ...rows('notification', 's2c', MODERN, undefined, ['notifications/tasks']),
    ].map((row) => ({ ...row, extension: TASKS_EXTENSION })),
  );

// Oldest first, so a larger index is a newer revision.
const ORDER: readonly Revision[] = [...ALL_REVISIONS].reverse();

/** Per direction, method → the revisions that have it; built once so a lookup is two map reads. */
const INDEX: Readonly<Record<MethodDirection, ReadonlyMap<string, ReadonlySet<Revision>>>> = (() => {
  const index = { c2s: new Map<string, Set<Revision>>(), s2c: new Map<string, Set<Revision>>() };
  for (const row of [...METHOD_TABLE, ...EXTENSION_METHOD_TABLE]) {
    const byMethod = index[row.direction];
    const revisions = byMethod.get(row.method) ?? new Set<Revision>();
    const from = ORDER.indexOf(row.since);
    const to = row.until === undefined ? ORDER.length - 1 : ORDER.indexOf(row.until);
    for (let at = from; at <= to; at++) revisions.add(ORDER[at]!);
    byMethod.set(row.method, revisions);
  }
  return index;
})();

/**
 * Whether the core protocol knows `method` in `direction` at all (in any revision). Methods it
 * does not know are extensions and are routed by name alone.
 *
 * @example
 * ```ts
 * isCoreMethod('initialize', 'c2s'); // true
 * isCoreMethod('com.example/search', 'c2s'); // false
 * ```
 */
export function isCoreMethod(method: string, direction: MethodDirection): boolean {
  return INDEX[direction].has(method);
}

/**
 * True when `method`, sent in `direction`, exists in `revision`. Extension methods (not in the
 * table) always exist: the table only removes what the core protocol removed.
 *
 * @example
 * ```ts
 * methodExists('initialize', 'c2s', '2026-07-28'); // false
 * methodExists('server/discover', 'c2s', '2026-07-28'); // true
 * methodExists('com.example/search', 'c2s', '2026-07-28'); // true
 * ```
 */
export function methodExists(method: string, direction: MethodDirection, revision: Revision): boolean {
  const revisions = INDEX[direction].get(method);
  return revisions === undefined || revisions.has(revision);
}
