/**
 * The Authorization tab: each step of the OAuth login the console made (protected resource
 * metadata, authorization server metadata, the client's identity, the authorization with PKCE,
 * the token, refreshes, step-ups), in order, done or failed with the reason.
 * @module
 */

/** One step as `@mcpkit/auth/client`'s observer reports it. */
export interface AuthStepEntry {
  time: number;
  step: string;
  ok: boolean;
  detail?: string;
  reason?: string;
  /** Against a host: the server whose login it is. */
  server?: string;
}

const LABELS: Readonly<Record<string, string>> = {
  'protected-resource-metadata': 'Protected resource metadata',
  'authorization-server-metadata': 'Authorization server metadata',
  client: 'Client identity (pre-registered, metadata document or registration)',
  authorization: 'Authorization (PKCE)',
  token: 'Token',
  refresh: 'Refresh',
  'step-up': 'Step-up',
};

/**
 * The steps, oldest first.
 *
 * @example
 * ```tsx
 * <AuthPanel steps={[{ time: Date.now(), step: 'token', ok: true, detail: 'granted' }]} />
 * ```
 */
export function AuthPanel({ steps }: { steps: AuthStepEntry[] }) {
  return (
    <section aria-label="Authorization steps">
      <ol class="auth-steps">
        {steps.map((entry, index) => (
          <li key={index} class={entry.ok ? 'ok' : 'error'}>
            {entry.server ? `${entry.server}: ` : null}
            <strong>{LABELS[entry.step] ?? entry.step}</strong>: {entry.ok ? 'done' : 'failed'}
            {entry.ok && entry.detail ? <span class="muted"> ({entry.detail})</span> : null}
            {!entry.ok && entry.reason ? <span> ({entry.reason})</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
