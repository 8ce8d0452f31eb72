/**
 * The demo's \`McpServer\`: its options, its instructions, and the clock it owns. The tools,
 * resources and prompts are registered on it by \`createDemoServer\` (\`server.ts\`).
 * @module
 */
import type { TaskStore } from '@mcpkit/core';
import { McpServer, type McpServerOptions, promptSupport, resourceSupport } from '@mcpkit/server';
import { TaskManager } from '@mcpkit/server/tasks';

/**
 * Options of `createDemoServer`.
 *
 * @example
 * ```ts
 * const server = createDemoServer({ clockIntervalMs: 0, log: (line) => console.error(line) });
 * ```
 */
export interface DemoServerOptions {
  /** How often `demo://clock` changes (and subscribers are told), in ms; 0 stops the clock. Default 5 000. */
  clockIntervalMs?: number;
  /** Where the server's own diagnostics go (never stdout in stdio mode). Default: nowhere. */
  log?: (line: string) => void;
  /**
   * Run task-augmented tool calls as tasks (the \`research\` tool). Default true. Turn it off for
   * stateless HTTP without auth, where no request could reach a task created by another.
   */
  tasks?: boolean;
  /** Where tasks are kept (a store shared by cluster nodes). Default: in memory. */
  taskStore?: TaskStore;
  /**
   * The server is served over stateless HTTP, so it can never send a request to the client:
   * the sampling, elicitation and roots tools then say so instead of blaming the client.
   */
  stateless?: boolean;
  /** Extra options for the underlying {@link McpServer}. */
  serverOptions?: McpServerOptions;
}

const INSTRUCTIONS = `mcpkit demo server: one small example of every MCP 2025-11-25 feature.
Tools: echo and add (basics), weather (structured output), slow_count (progress and cancellation),
summarize (sampling), book_table (form elicitation), connect_account (URL elicitation), list_roots (roots),
logo and beep (image and audio), find_resources (resource links), annotated_message (annotations),
research (runs as a task), show_tally (an MCP App: a view whose button calls tally_add).
Resources: demo://readme, demo://logo.png, demo://clock (subscribe: it changes every few seconds),
and the template demo://items/{category}/{id} (with completion).
Prompts: greet, translate (arguments with completion), review_readme (embedded resource).`;

/** The annotations of a tool that only reads. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The demo's McpServer: it owns the clock timer and stops it on close. */
export class DemoServer extends McpServer {
  private readonly clock: ReturnType<typeof setInterval> | undefined;

  constructor(readonly demoOptions: DemoServerOptions) {
    super(
      { name: 'mcpkit-demo', title: 'mcpkit demo server', version: '0.1.0' },
      {
        instructions: INSTRUCTIONS,
        resources: resourceSupport,
        prompts: promptSupport,
        tasks: demoOptions.tasks === false ? undefined : new TaskManager({ store: demoOptions.taskStore }),
        ...demoOptions.serverOptions,
      },
    );
    const interval = demoOptions.clockIntervalMs ?? 5000;
    if (interval > 0) {
      this.clock = setInterval(() => this.notifyResourceUpdated('demo://clock'), interval);
      this.clock.unref();
    }
  }

  /** Writes a diagnostic line for the operator. */
  note(line: string): void {
    this.demoOptions.log?.(line);
  }

  override async close(): Promise<void> {
    clearInterval(this.clock);
    await super.close();
  }
}
