/**
 * The login the page starts: when the server asks for authorization (a 401, or a 403 asking for
 * more scope), why it asks and a "Log in" link to the authorization server's page, opened in a new
 * tab (a real navigation, which comes back to the console's own `/callback`); after a login that
 * did not finish, "Log in again".
 * @module
 */
import { call } from './api.js';
import { useReconnect } from './reconnect.js';

/**
 * A login waiting for the person, as the backend reports it (`{}` when none waits).
 *
 * @example
 * ```ts
 * const waiting: LoginWaiting = { url: 'http://127.0.0.1:9000/auth?…', reason: 'HTTP 401 Unauthorized' };
 * ```
 */
export interface LoginWaiting {
  url?: string;
  reason?: string;
}

/**
 * The prompt, or nothing when no login waits and none failed.
 *
 * @example
 * ```tsx
 * <LoginPrompt waiting={{ url: 'http://127.0.0.1:9000/auth?…' }} failed={false} era="auto" />
 * ```
 */
export function LoginPrompt({
  waiting,
  failed,
  era,
}: {
  waiting: LoginWaiting | undefined;
  failed: boolean;
  era: string;
}) {
  const [busy, reconnect] = useReconnect();
  if (waiting?.url) {
    return (
      <section class="result login-prompt" aria-label="Authorization needed">
        <p>
          <strong>The server needs authorization.</strong>
          {waiting.reason ? (
            <>
              {' '}
              It answered: <code>{waiting.reason}</code>
            </>
          ) : null}
        </p>
        <div class="actions">
          <a class="button primary" href={waiting.url} target="_blank" rel="noopener noreferrer">
            Log in
          </a>
          <button type="button" onClick={() => void call('cancelLogin')}>
            Cancel
          </button>
        </div>
        <p class="muted">
          The authorization server's page opens in a new tab; the console goes on once you come back. The
          Authorization tab shows each step.
        </p>
      </section>
    );
  }
  if (!failed) return null;
  return (
    <section class="result login-prompt" aria-label="Authorization needed">
      <p>The login did not finish; the Authorization tab shows the step that failed and why.</p>
      <button type="button" class="primary" onClick={() => reconnect(era)} disabled={busy}>
        Log in again
      </button>
    </section>
  );
}
