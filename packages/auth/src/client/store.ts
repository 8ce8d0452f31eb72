/**
 * Where the OAuth client keeps tokens and client registrations, keyed by resource.
 * @module
 */

/** Tokens issued for one resource. */
export interface StoredTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since epoch. */
  readonly expiresAt?: number;
  readonly scope?: string;
  /** The issuer that issued them. */
  readonly issuer: string;
}

/** A client registration at one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly tokenEndpointAuthMethod?: string;
}

/**
 * Persists tokens per resource and client registrations per issuer. Implement it to keep them
 * across runs (a keychain, a 0600 file); the default keeps them in memory.
 *
 * @example
 * ```ts
 * const store: TokenStore = new MemoryTokenStore();
 * await store.saveTokens('https://mcp.example.com/mcp', { accessToken: 'x', issuer: 'https://auth.example.com' });
 * ```
 */
export interface TokenStore {
  loadTokens(resource: string): Promise<StoredTokens | undefined> | StoredTokens | undefined;
  saveTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> | void;
  loadClient(issuer: string): Promise<StoredClient | undefined> | StoredClient | undefined;
  saveClient(issuer: string, client: StoredClient): Promise<void> | void;
}

/**
 * The in-memory {@link TokenStore}: tokens live as long as the process.
 *
 * @example
 * ```ts
 * const serverUrl = 'https://mcp.example.com/mcp';
 * declare const redirect: RedirectHook;
 * const provider = new OAuthClientProvider({ serverUrl, redirect, store: new MemoryTokenStore() });
 * ```
 */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();
  private readonly clients = new Map<string, StoredClient>();

  loadTokens(resource: string): StoredTokens | undefined {
    return this.tokens.get(resource);
  }
  saveTokens(resource: string, tokens: StoredTokens | undefined): void {
    if (tokens) this.tokens.set(resource, tokens);
    else this.tokens.delete(resource);
  }
  loadClient(issuer: string): StoredClient | undefined {
    return this.clients.get(issuer);
  }
  saveClient(issuer: string, client: StoredClient): void {
    this.clients.set(issuer, client);
  }
}
