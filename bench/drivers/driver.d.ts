/**
 * The contract every `bench/drivers/<impl>-<transport>.mjs` module fulfils: export `connect`.
 * Drivers run inside a fresh worker process per measurement (see bench/lib/call-worker.mjs).
 */

/** A connected client that can call the benchmark tool. */
export interface BenchSession {
  /** Calls `echo` with `{ text }` and resolves with the CallToolResult (`{ content: [{ type: 'text', text }] }`). */
  call(text: string): Promise<unknown>;
  /** Closes the client and, for stdio, ends the server process; must leave no open handles. */
  close(): Promise<void>;
  /** Optional, stdio: the server process's CPU time so far in µs (recorded as `serverCpuUsPerCall`). */
  serverCpuUs?(): number | undefined;
}

/**
 * What a stdio driver receives: the server command to spawn. In-memory drivers receive `{}`.
 * The driver must let the server's stderr through to its own (e.g. `stdio: [..., 'inherit']`) so the
 * harness can see warnings.
 */
export interface ConnectOptions {
  command: string;
  args: string[];
  cwd: string;
  /** Extra environment variables of the server process (e.g. a middleware variant), if any. */
  env?: Record<string, string>;
}

export type Connect = (options: ConnectOptions) => Promise<BenchSession>;
