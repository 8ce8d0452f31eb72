/**
 * A client registered at a test authorization server (oidc-provider's `/reg`) the way an
 * administrator pre-registers one: a confidential native client with the loopback redirect.
 */
export async function preRegisteredClient(
  issuer: string,
): Promise<{ client_id: string; client_secret: string }> {
  const registration = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: ['http://127.0.0.1/callback'],
      application_type: 'native',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  return (await registration.json()) as { client_id: string; client_secret: string };
}
