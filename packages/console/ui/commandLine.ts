/**
 * The `mcpkit` command line that sends the same request: a protocol log entry or a tool call,
 * exported so it can be pasted into a shell.
 * @module
 */

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Where the target goes in a command line: a URL right after the verb, `--config` options
 * anywhere, a stdio command last (after `--`).
 */
function withTarget(target: string, verb: string, args: string[], server?: string): string {
  const quoted = args.map(shellQuote);
  if (target.startsWith('-- ')) return ['mcpkit', verb, ...quoted, target].join(' ');
  if (target.startsWith('--config ')) {
    const config = server ? `${target} --server ${shellQuote(server)}` : target;
    return ['mcpkit', verb, config, ...quoted].join(' ');
  }
  return ['mcpkit', verb, shellQuote(target), ...quoted].join(' ');
}

/**
 * The command line for one JSON-RPC request, or `undefined` when `mcpkit` has no verb for it.
 * Against a host, `server` names the host's server the request went to (its own names are used).
 *
 * @example
 * ```ts
 * commandFor('http://127.0.0.1:3000/mcp', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
 * // mcpkit call http://127.0.0.1:3000/mcp echo --args '{"text":"hi"}'
 * ```
 */
export function commandFor(
  target: string,
  message: { method?: string; params?: Record<string, any> },
  server?: string,
): string | undefined {
  const params = message.params ?? {};
  switch (message.method) {
    case 'tools/call': {
      const args =
        params.arguments && Object.keys(params.arguments).length > 0
          ? ['--args', JSON.stringify(params.arguments)]
          : [];
      // A task-augmented call (params.task, 2025-11-25) is `--task`, as the person asked for it.
      const task = params.task ? ['--task'] : [];
      return withTarget(target, 'call', [String(params.name), ...args, ...task], server);
    }
    case 'resources/read':
      return withTarget(target, 'read', [String(params.uri)], server);
    case 'prompts/get': {
      const args =
        params.arguments && Object.keys(params.arguments).length > 0
          ? ['--args', JSON.stringify(params.arguments)]
          : [];
      return withTarget(target, 'get', [String(params.name), ...args], server);
    }
    case 'tools/list':
      return withTarget(target, 'list', ['tools'], server);
    case 'resources/list':
      return withTarget(target, 'list', ['resources'], server);
    case 'resources/templates/list':
      return withTarget(target, 'list', ['templates'], server);
    case 'prompts/list':
      return withTarget(target, 'list', ['prompts'], server);
    case 'ping':
      return withTarget(target, 'ping', [], server);
    case 'initialize':
    case 'server/discover':
      return withTarget(target, 'info', [], server);
    default:
      return undefined;
  }
}
