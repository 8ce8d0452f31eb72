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
 * A login waiting for the person, as the backend reports it.
 *
 * @example
 * ```ts
 * const waiting: LoginWaiting = { url: 'http://127.0.0.1:9000/auth?…', reason: 'HTTP 401 Unauthorized' };
 * ```
 */
export interface LoginWaiting {
  url: string;
  reason?: string;
  /** Against a host: the server that asks. */
  server?: string;
}

/**
 * The prompt (one per login waiting: a host's servers may each ask), or nothing when no login
 * waits and none failed.
 *
 * @example
 * ```tsx
 * <LoginPrompt waiting={[{ url: 'http://127.0.0.1:9000/auth?…' }]} failed={false} era="auto" />
 * ```
 */
export function LoginPrompt({
  waiting,
  failed,
  era,
}: {
  waiting: readonly LoginWaiting[];
  failed: boolean;
  era: string;
}) {
  const [busy, reconnect] = useReconnect();
  if (waiting.length > 0) {
    return (
      <section class="result login-prompt" aria-label="Authorization needed">
        {waiting.map((login) => (
          <div key={login.url}>
            <p>
              <strong>{login.server ?? 'The server'} needs authorization.</strong>
              {login.reason ? (
                <>
                  {' '}
                  It answered: <code>{login.reason}</code>
                </>
              ) : null}
            </p>
            <div class="actions">
              <a class="button primary" href={login.url} target="_blank" rel="noopener noreferrer">
                {login.server ? `Log in to ${login.server}` : 'Log in'}
              </a>
            </div>
          </div>
        ))}
        <div class="actions">
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
