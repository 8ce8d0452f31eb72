/**
 * Loading the private key a client signs `private_key_jwt` assertions with (jose).
 * @module
 */
import { type CryptoKey, importPKCS8 } from 'jose';

/**
 * Imports a PKCS#8 PEM private key for `private_key_jwt` client authentication.
 *
 * @example
 * ```ts
 * declare const pem: string;
 * const serverUrl = 'https://mcp.example.com/mcp';
 * const clientId = 'my-service';
 * const privateKey = await importSigningKey(pem, 'ES256', 'key-1');
 * const auth = new OAuthClientProvider({ serverUrl, grant: 'client_credentials', clientId, privateKey, tokenEndpointAuthMethod: 'private_key_jwt' });
 * ```
 */
export async function importSigningKey(
  pem: string,
  alg: string,
  kid?: string,
): Promise<{ key: CryptoKey; kid?: string }> {
  const key = (await importPKCS8(pem, alg)) as CryptoKey;
  return kid === undefined ? { key } : { key, kid };
}
