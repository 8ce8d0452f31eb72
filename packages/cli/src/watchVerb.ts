/**
 * The `watch` verb (also spelled `subscribe`): subscribes to the resources it is given and prints
 * every `resources/updated` and every list change as it comes, until Ctrl-C or `--timeout`, which
 * end it normally. A list change is shown as what was added and removed, not just "changed".
 * @module
 */
import type { ListKind } from '@mcpkit/client';
import type { ClientAction } from './args.js';
import { VERB_USAGE } from './clientArgs.js';
import { ExitCode, type ExitCodeValue, usageError } from './errors.js';
import { requestOptions, type VerbContext } from './verbContext.js';

/** One line of output: an update of a resource, or a list that changed. */
type WatchEvent =
  | { readonly event: 'resources/updated'; readonly uri: string }
  | {
      readonly event: `${ListKind}/list_changed`;
      readonly added: readonly string[];
      readonly removed: readonly string[];
      readonly count: number;
    };

const KINDS: readonly ListKind[] = ['tools', 'resources', 'prompts'];

/**
 * Runs `watch`; resolves with the exit code once Ctrl-C or `--timeout` stops it, and rejects when
 * the connection is lost.
 *
 * @example
 * ```ts
 * const code = await watch({ verb: 'watch', uris: ['demo://clock'] }, context);
 * ```
 */
export async function watch(
  action: Extract<ClientAction, { verb: 'watch' }>,
  context: VerbContext,
): Promise<ExitCodeValue> {
  const { client } = context;
  const capabilities = client.serverCapabilities ?? {};
  if (action.uris.length > 0 && !capabilities.resources?.subscribe) {
    throw usageError(
      'The server does not offer resource subscriptions (capabilities.resources.subscribe)',
      `See what it offers: mcpkit info ${context.targetHint}`,
    );
  }
  const kinds = KINDS.filter((kind) => capabilities[kind]?.listChanged === true);
  if (kinds.length === 0 && action.uris.length === 0) {
    throw usageError(
      'Nothing to watch: the server announces no list changes, and no resource URI was given',
      `Usage: ${VERB_USAGE.watch}`,
    );
  }
  const ended = endOf(context);
  const print = (event: WatchEvent) => writeEvent(event, context);
  client.onResourceUpdated((uri) => print({ event: 'resources/updated', uri }));
  for (const kind of kinds) await followList(kind, context, print);
  for (const uri of action.uris) await client.subscribeResource(uri, requestOptions(context));
  const what = [...action.uris, ...kinds.map((kind) => `the ${kind} list`)].join(', ');
  context.notice(`Watching ${what}. Ctrl-C to stop.`);
  await ended;
  return ExitCode.Success;
}

/** Resolves when the command is stopped (Ctrl-C, `--timeout`); rejects when the connection goes. */
function endOf(context: VerbContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve(), { once: true });
    context.client.onClose((error) =>
      reject(error ?? new Error('The server closed the connection while it was being watched')),
    );
  });
}

/** Remembers the names in one list and prints what each change adds and removes. */
async function followList(
  kind: ListKind,
  context: VerbContext,
  print: (event: WatchEvent) => void,
): Promise<void> {
  let known = new Set(await namesOf(kind, context));
  context.client.onListChanged(kind, () => {
    namesOf(kind, context).then(
      (names) => {
        const now = new Set(names);
        print({
          event: `${kind}/list_changed`,
          added: names.filter((name) => !known.has(name)),
          removed: [...known].filter((name) => !now.has(name)),
          count: now.size,
        });
        known = now;
      },
      (error: unknown) => context.notice(`The ${kind} list changed, but listing it failed: ${String(error)}`),
    );
  });
}

async function namesOf(kind: ListKind, context: VerbContext): Promise<string[]> {
  const { client } = context;
  if (kind === 'tools') return (await client.tools()).map((tool) => tool.name);
  if (kind === 'prompts') return (await client.prompts()).map((prompt) => prompt.name);
  return (await client.resources()).map((resource) => resource.uri);
}

function writeEvent(event: WatchEvent, context: VerbContext): void {
  const time = new Date().toISOString();
  if (context.settings.json) {
    context.stdout.write(`${JSON.stringify({ time, ...event })}\n`);
    return;
  }
  const style = context.outStyle;
  const clock = style.dim(time.slice(11, 19));
  if (event.event === 'resources/updated') {
    context.stdout.write(`${clock} ${style.cyan('updated')} ${event.uri}\n`);
    return;
  }
  const changes = [
    ...event.added.map((name) => style.green(`+${name}`)),
    ...event.removed.map((name) => style.red(`-${name}`)),
  ];
  const detail = changes.length > 0 ? changes.join(' ') : style.dim('(same names)');
  context.stdout.write(`${clock} ${style.yellow(event.event)} ${detail} ${style.dim(`(${event.count})`)}\n`);
}
