/**
 * Connecting again from the page (the header's Reconnect, the login's "Log in again"): the
 * backend answers once connected, or once a login waits for the person.
 * @module
 */
import { useState } from 'preact/hooks';
import { call } from './api.js';

/**
 * Whether a reconnection is under way, and the function that starts one speaking `era`.
 *
 * @example
 * ```tsx
 * const [busy, reconnect] = useReconnect();
 * <button type="button" onClick={() => reconnect('auto')} disabled={busy}>Reconnect</button>;
 * ```
 */
export function useReconnect(): [boolean, (era: string) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const reconnect = async (era: string) => {
    setBusy(true);
    try {
      await call('reconnect', { era });
    } finally {
      setBusy(false);
    }
  };
  return [busy, reconnect];
}
