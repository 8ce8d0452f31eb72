/**
 * What the command line parses into: the verbs, the server a command talks to, and the settings
 * of each kind of command (client verbs, `login`, `serve`, `gateway`).
 * @module
 */
import type { LoggingLevel } from '@mcpkit/core';
import type { GatewaySharing } from './gatewaySharing.js';

/** The verbs `mcpkit` understands. */
export const VERBS = [
  'info',
  'list',
  'call',
  'read',
  'get',
  'complete',
  'ping',
  'watch',
  'login',
  'logout',
  'serve',
  'dev',
  'gateway',
  'auth-server',
  'console',
  'replay',
] as const;

/** One of {@link VERBS}. */
export type Verb = (typeof VERBS)[number];

/** What `list` can list. */
export const LIST_KINDS = ['tools', 'resources', 'templates', 'prompts'] as const;

/** One of {@link LIST_KINDS}. */
export type ListKindArg = (typeof LIST_KINDS)[number];

/**
 * The server to talk to, as given on the command line (a config entry is resolved later).
 *
 * @example
 * ```ts
 * const target: TargetSpec = { kind: 'stdio', command: 'node', args: ['server.js'] };
 * ```
 */
export type TargetSpec =
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'config'; readonly file: string; readonly server: string | undefined };

/**
 * Options shared by every verb that talks to a server.
 *
 * @example
 * ```ts
 * const { settings } = parseCommandLine(['ping', '--json', 'http://127.0.0.1:3000/mcp']) as { settings: ClientSettings };
 * settings.json; // true
 * ```
 */
export interface ClientSettings {
  readonly json: boolean;
  readonly verbose: boolean;
  /** The whole command's deadline, in ms. */
  readonly timeoutMs: number | undefined;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly samplingCommand: string | undefined;
  readonly roots: readonly string[];
  readonly logLevel: LoggingLevel | undefined;
  /** `--era`: which protocol era to speak (`auto` probes for 2026-07-28). */
  readonly era: 'auto' | '2026' | '2025';
  /** OAuth settings for an HTTP server that asks for a login. */
  readonly auth: AuthSettings;
}

/**
 * How the CLI logs in to a server that asks for it (`--client-id`, `--client-secret`, `--scope`,
 * `--no-login`).
 *
 * @example
 * ```ts
 * const auth: AuthSettings = { clientId: 'my-app', clientSecret: undefined, scope: 'mcp:read', login: true };
 * ```
 */
export interface AuthSettings {
  /** A pre-registered client id (else the one remembered from `login`, else dynamic registration). */
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** Scope to ask for when the server names none. */
  readonly scope: string | undefined;
  /** False with `--no-login`: never open a browser, exit 3 instead. */
  readonly login: boolean;
}

/**
 * What `serve` was asked to do.
 *
 * @example
 * ```ts
 * const settings: ServeSettings = { transport: 'http', port: 3000, host: '127.0.0.1', stateless: false, jsonResponse: false, folders: [] };
 * ```
 */
export interface ServeSettings {
  readonly transport: 'stdio' | 'http';
  readonly port: number;
  readonly host: string;
  readonly stateless: boolean;
  readonly jsonResponse: boolean;
  /** With `--auth-issuer`: serve as an OAuth protected resource of this authorization server. */
  readonly authIssuer?: string;
  /** The audience tokens must name (default: the server's own `/mcp` URL). */
  readonly authAudience?: string;
  /** `--auth-scope`: the scopes its metadata publishes as `scopes_supported` (default `mcp:read`). */
  readonly authScopes?: readonly string[];
  /** Directories served read-only next to the demo's resources (`--folder`, repeatable). */
  readonly folders: readonly string[];
  /** With `--metrics-port`: serve Prometheus metrics on this port of 127.0.0.1. */
  readonly metricsPort?: number;
  /** `--log-json`: structured log events as JSON lines on stderr. */
  readonly logJson?: boolean;
  /** `--rate-limit`: requests per second and burst per client; absent when not limited. */
  readonly rateLimit?: { readonly rate: number; readonly burst: number };
  /** With `--redis`: run as one node of a cluster whose sessions, events and tasks live in this Redis. */
  readonly redis?: string;
}

/**
 * A verb that talks to a server, with its own arguments.
 *
 * @example
 * ```ts
 * const action: ClientAction = { verb: 'read', uri: 'demo://readme' };
 * ```
 */
export type ClientAction =
  | { readonly verb: 'info' }
  | { readonly verb: 'ping' }
  | { readonly verb: 'list'; readonly kind: ListKindArg | undefined }
  | {
      readonly verb: 'call';
      readonly tool: string;
      readonly pairs: readonly string[];
      readonly argsJson: string | undefined;
      readonly task: boolean;
      /** `--out DIR`: images, audio and binary resources of the result saved there as files. */
      readonly out?: string | undefined;
    }
  | { readonly verb: 'read'; readonly uri: string }
  | {
      readonly verb: 'get';
      readonly prompt: string;
      readonly pairs: readonly string[];
      readonly argsJson: string | undefined;
    }
  | { readonly verb: 'complete'; readonly ref: string; readonly pairs: readonly string[] }
  | { readonly verb: 'watch'; readonly uris: readonly string[] }
  | {
      /** `mcpkit replay FILE TARGET`: a session the console saved, sent again and compared. */
      readonly verb: 'replay';
      readonly file: string;
      /** `--ignore PATH` (repeatable): paths left out of every comparison. */
      readonly ignore: readonly string[];
      /**
       * `--approve-all`: the host of `--config FILE` runs every recorded tool call, consent or
       * not (the person chose to re-run them).
       */
      readonly approveAll: boolean;
    }
  | { readonly verb: 'login' };

/**
 * `mcpkit gateway`: every server of a config file served as one MCP server.
 *
 * @example
 * ```ts
 * const settings: GatewaySettings = { config: 'mcp.json', transport: 'http', port: 3000, host: '127.0.0.1' };
 * ```
 */
export interface GatewaySettings {
  readonly config: string;
  readonly transport: 'stdio' | 'http';
  readonly port: number;
  readonly host: string;
  /** The revision spoken to HTTP upstreams (`--era`); the front serves both eras regardless. */
  readonly era?: 'auto' | '2026' | '2025';
  /** With `--metrics-port`: serve Prometheus metrics on this port of 127.0.0.1. */
  readonly metricsPort?: number;
  /** `--log-json`: structured log events as JSON lines on stderr. */
  readonly logJson?: boolean;
  /** `--upstreams`, `--lanes`, `--session-idle`, `--sessions-per-client`, when given. */
  readonly sharing?: GatewaySharing;
  /** `--start-budget DURATION`: how long a listing waits for a starting server (the host's `startBudgetMs`). */
  readonly startBudgetMs?: number;
  /** `--max-total-timeout DURATION`: the longest an upstream call may run, progress or not. */
  readonly maxTotalTimeoutMs?: number;
  /** `--apps`: declare MCP Apps to the servers, so `_meta.ui` and `ui://` views pass through. */
  readonly apps?: boolean;
}

/**
 * `mcpkit dev FILE`: a server file run behind a front that outlives its restarts.
 *
 * @example
 * ```ts
 * const settings: DevSettings = { file: 'server.ts', transport: 'http', port: 3000, host: '127.0.0.1', watch: [], serverArgs: [] };
 * ```
 */
export interface DevSettings {
  /** The stdio server script (.js, .mjs, .cjs, .ts, .mts, .cts), as given. */
  readonly file: string;
  /** The front the client connects to. */
  readonly transport: 'stdio' | 'http';
  readonly port: number;
  readonly host: string;
  /** `--watch`: paths watched besides FILE; none: FILE's directory. */
  readonly watch: readonly string[];
  /** After `--`: the server's own arguments. */
  readonly serverArgs: readonly string[];
}

/**
 * A fully parsed command line.
 *
 * @example
 * ```ts
 * const parsed: ParsedCommand = parseCommandLine(['--version']); // { kind: 'version' }
 * ```
 */
export type ParsedCommand =
  | { readonly kind: 'help'; readonly verb: Verb | undefined }
  | { readonly kind: 'version' }
  | { readonly kind: 'serve'; readonly serve: ServeSettings }
  | { readonly kind: 'gateway'; readonly gateway: GatewaySettings }
  | { readonly kind: 'dev'; readonly dev: DevSettings }
  | { readonly kind: 'auth-server'; readonly authServer: { readonly port: number } }
  | {
      /** `mcpkit console`: the web console against one server, or (`--config` alone) a host. */
      readonly kind: 'console';
      readonly target: TargetSpec;
      readonly settings: ClientSettings;
      /** False with `--no-open`: only print the URL. */
      readonly open: boolean;
    }
  | { readonly kind: 'logout'; readonly target: TargetSpec; readonly settings: ClientSettings }
  | {
      readonly kind: 'client';
      readonly action: ClientAction;
      readonly target: TargetSpec;
      readonly settings: ClientSettings;
    };
