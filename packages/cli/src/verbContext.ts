/**
 * What every verb is given (the {@link VerbContext}) and the helpers the verbs share: request
 * options from the flags, finding a tool or prompt by name, and checking an answer's list.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { OutgoingRequestOptions, ProgressUpdate, Prompt, Tool } from '@mcpkit/core';
import type { McpHost, McpHostOptions } from '@mcpkit/host';
import type { ClientSettings } from './args.js';
import { closestName } from './args.js';
import { CliError, ExitCode, usageError } from './errors.js';
import type { OutputStream, Style } from './output.js';

/** What a verb needs: the client, the options, where to write, and how to report progress. */
export interface VerbContext {
  readonly client: McpClient;
  readonly settings: ClientSettings;
  /** How the target is named in messages and hints (the URL, or `-- command`). */
  readonly targetHint: string;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly outStyle: Style;
  readonly errStyle: Style;
  /** Aborted by Ctrl-C or the `--timeout` deadline. */
  readonly signal: AbortSignal;
  /** Draws the progress bar (a no-op when stderr is not a terminal). */
  readonly onProgress: (update: ProgressUpdate) => void;
  /** Removes the progress bar before anything else is written. */
  readonly clearProgress: () => void;
  /** Says something on stderr. */
  readonly notice: (text: string) => void;
  /** With `--config FILE` and no `--server`: the state of each server of the file. */
  readonly servers?: () => ReadonlyArray<{
    server: string;
    state: string;
    lastError?: string;
    stderr?: string;
  }>;
  /** Behind `--config FILE`: the server that offers a catalogue tool or prompt. */
  readonly serverOf?: (kind: 'tools' | 'prompts', name: string) => string | undefined;
  /**
   * Behind `--config FILE`: a host of its own over the file's servers, as the gateway runs them
   * (the caller closes it; the gateway starts its servers only when a request reaches it);
   * `more` adds to its options (a replay's hooks).
   */
  readonly openHost?: (more?: Partial<McpHostOptions>) => McpHost;
}

export function requestOptions(context: VerbContext, withProgress = false): OutgoingRequestOptions {
  const options: OutgoingRequestOptions = { signal: context.signal };
  const timeout = context.settings.timeoutMs;
  if (timeout !== undefined) {
    options.timeout = timeout;
    options.maxTotalTimeout = timeout;
  }
  if (withProgress) options.onProgress = context.onProgress;
  return options;
}

/** Looks up a tool or prompt by name; an unknown name is a usage error with the closest match. */
export async function findNamed<K extends 'tools' | 'prompts'>(
  kind: K,
  name: string,
  context: VerbContext,
): Promise<K extends 'tools' ? Tool : Prompt> {
  if (!context.client.serverCapabilities?.[kind]) {
    throw usageError(`The server offers no ${kind}`, `See what it offers: mcpkit info ${context.targetHint}`);
  }
  const items: ReadonlyArray<Tool | Prompt> =
    kind === 'tools' ? await context.client.tools() : await context.client.prompts();
  const item = items.find((candidate) => candidate.name === name);
  if (item) return item as K extends 'tools' ? Tool : Prompt;
  throw usageError(
    `The server has no ${kind.slice(0, -1)} "${name}"`,
    notFoundHint(
      name,
      items.map((candidate) => candidate.name),
      kind,
      context,
    ),
  );
}

/** The host's default namespace separator, which `--config` with several servers uses. */
const NAMESPACE_SEPARATOR = '__';

function notFoundHint(name: string, names: readonly string[], kind: string, context: VerbContext): string {
  // Behind a gateway, a name several servers offer is namespaced: `a__echo`, `b__echo`.
  const namespaced = names.filter((candidate) => candidate.endsWith(`${NAMESPACE_SEPARATOR}${name}`));
  if (namespaced.length > 0) {
    const choices = namespaced.map((candidate) => `"${candidate}"`);
    const listed =
      choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
    return `${namespaced.length > 1 ? 'Several servers offer it: call' : 'Did you mean'} ${listed}?`;
  }
  const guess = closestName(name, names);
  const known =
    names.length === 0
      ? `It has no ${kind}.`
      : `Its ${kind}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`;
  return `${guess ? `Did you mean "${guess}"? ` : ''}${known} (mcpkit list ${kind} ${context.targetHint})`;
}

/**
 * Checks the one member a verb's output depends on, so a server that breaks the protocol is
 * reported as such (exit 3) rather than crashing the renderer.
 */
export function expectList(result: unknown, member: string, method: string): void {
  const value = (result as Record<string, unknown> | null)?.[member];
  if (!Array.isArray(value)) {
    throw new CliError(
      ExitCode.Connection,
      `Protocol error: the server's answer to ${method} has no "${member}" list`,
      'The server does not follow the MCP specification here; rerun with --verbose to see its answer',
    );
  }
}
