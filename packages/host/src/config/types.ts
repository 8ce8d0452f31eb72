/**
 * The shapes of a parsed configuration: one checked, fully expanded entry per server.
 * @module
 */

/** What every server entry may carry besides how to reach it (Cline's fields included). */
interface EntryCommon {
  /** The server's key in the file. */
  readonly name: string;
  /** Cline's `disabled`: listed, but never started. */
  readonly disabled: boolean;
  /** Cline's `autoApprove`: tool names (or `*` patterns) that need no consent. */
  readonly autoApprove: readonly string[];
  /** Cline's `timeout` (seconds in the file), in milliseconds: the default request timeout. */
  readonly timeoutMs?: number;
  /**
   * mcpkit's `startBudget` (seconds in the file), in milliseconds: how long a listing waits for
   * this server to start (`McpHostOptions.startBudgetMs` for one server).
   */
  readonly startBudgetMs?: number;
}

/**
 * One server entry of a config file, checked and with every variable expanded.
 *
 * @example
 * ```ts
 * const entry: ServerEntry = {
 *   kind: 'stdio', name: 'demo', command: 'npx', args: ['mcpkit', 'serve', '--stdio'], env: {},
 *   disabled: false, autoApprove: [],
 * };
 * ```
 */
export type ServerEntry =
  | (EntryCommon & {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    })
  | (EntryCommon & {
      readonly kind: 'url';
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
      /** `sse` when the entry says the server speaks only the legacy HTTP+SSE transport. */
      readonly transport: 'auto' | 'sse';
      /** The entry's own OAuth client settings, when it has an `oauth` object. */
      readonly oauth?: OAuthEntry;
    });

/**
 * An HTTP server's OAuth settings from its entry's `oauth` object: the client pre-registered at
 * its authorization server (else the client registers itself) and the scope to ask for. The
 * secret stays in memory: write it as `${env:NAME}` or `${input:ID}` to keep it out of the file.
 *
 * @example
 * ```ts
 * const oauth: OAuthEntry = { clientId: 'mcpkit-crm', clientSecret: process.env.CRM_SECRET, scope: 'crm:read' };
 * ```
 */
export interface OAuthEntry {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Space-separated scopes. */
  readonly scope?: string;
}

/**
 * Asks the user for the value of an `${input:ID}` variable, as VS Code does from the file's
 * `inputs` entry. The answer is used in memory only: nothing is ever written back to the file.
 *
 * @example
 * ```ts
 * const ask: AskInput = async ({ description }) => prompt(description);
 * ```
 */
export type AskInput = (input: {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
}) => Promise<string>;

/**
 * Where a config file's text came from and how to resolve what it refers to. Runtime-neutral:
 * `@mcpkit/host/node`'s `loadHostConfig` fills it in from a file on disk.
 *
 * @example
 * ```ts
 * const source: ConfigSource = { file: 'mcp.json', text, workspaceFolder: '/work', env: {} };
 * ```
 */
export interface ConfigSource {
  /** The file's name, used in every error message. */
  readonly file: string;
  /** The file's JSON text. */
  readonly text: string;
  /**
   * Parses `text`; throws a `HostConfigError` for text it cannot read. Default: strict JSON. The
   * Node loader passes a JSONC parser (comments, trailing commas, as in `.vscode/mcp.json`).
   */
  readonly parse?: (file: string, text: string) => unknown;
  /** What `${workspaceFolder}` expands to. */
  readonly workspaceFolder: string;
  /** What `${env:NAME}` reads. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Answers `${input:ID}`; without it such a variable is an error. */
  readonly ask?: AskInput;
  /** Makes a relative `cwd` absolute (the node loader resolves it against the file's folder). */
  readonly resolvePath?: (path: string) => string;
}
