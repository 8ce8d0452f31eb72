/**
 * The backend's events inside the page: one `EventSource` for the whole page, and any component
 * may listen to the kinds of event it shows.
 * @module
 */
import { listen } from './api.js';

const bus = new EventTarget();

/** The kinds of event the backend sends. */
const KINDS = [
  'log',
  'state',
  'question',
  'answered',
  'progress',
  'taskStatus',
  'resourceUpdated',
  'listChanged',
  'serverLog',
  'audit',
  'serverState',
  'authStep',
  'login',
] as const;

/**
 * Starts the page's one event stream.
 *
 * @example
 * ```ts
 * connectEvents();
 * ```
 */
export function connectEvents(): () => void {
  return listen(
    Object.fromEntries(
      KINDS.map((kind) => [
        kind,
        (data: unknown) => bus.dispatchEvent(new CustomEvent(kind, { detail: data })),
      ]),
    ),
  );
}

/**
 * Listens to one kind of event; returns the function that stops listening (for `useEffect`).
 *
 * @example
 * ```ts
 * useEffect(() => on('progress', (update) => setProgress(update)), []);
 * ```
 */
export function on(kind: (typeof KINDS)[number], handler: (data: any) => void): () => void {
  const listener = (event: Event) => handler((event as CustomEvent).detail);
  bus.addEventListener(kind, listener);
  return () => bus.removeEventListener(kind, listener);
}
