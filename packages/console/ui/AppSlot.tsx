/**
 * The place an MCP App renders: the registered renderer (the MCP Apps host bridge) mounts it
 * here; without one, the slot names the App the tool links. What the view asks of its server goes
 * through the console's backend, to the tool's own server only (against a host, the view uses the
 * names its server gives its tools; they are mapped to the catalogue's here).
 * @module
 */
import { useEffect, useRef } from 'preact/hooks';
import { call, callId } from './api.js';
import { type AppMount, appRenderer } from './apps.js';

type ListedTool = { name: string; server?: string; original?: string; _meta?: Record<string, unknown> };

/** The backend's operations for the view of `tool` of `server` (undefined: the one server). */
function serverCalls(
  tool: string,
  server: string | undefined,
): Pick<AppMount, 'askPerson' | 'callTool' | 'listTools' | 'readResource'> {
  /** Catalogue names by the server's own names, from the last listing. */
  const names = new Map<string, string>();
  return {
    readResource: (uri) => call('readResource', { uri }),
    listTools: async () => {
      const tools = (await call<ListedTool[]>('listTools')).filter((tool) => tool.server === server);
      names.clear();
      return tools.map(({ server: _server, original, ...tool }) => {
        if (original) names.set(original, tool.name);
        return original ? { ...tool, name: original } : tool;
      });
    },
    callTool: (name, args) =>
      call('callTool', { callId: callId(), name: names.get(name) ?? name, arguments: args }),
    askPerson: (kind, params) => call('askForView', { kind, params, tool, ...(server ? { server } : {}) }),
  };
}

/**
 * One App slot.
 *
 * @example
 * ```tsx
 * <AppSlot resourceUri="ui://charts/bar" tool={tool} args={{}} result={result} />
 * ```
 */
export function AppSlot(props: {
  resourceUri: string;
  tool: ListedTool;
  args: Record<string, unknown>;
  result: unknown;
}) {
  const container = useRef<HTMLDivElement>(null);
  const render = appRenderer();
  useEffect(() => {
    if (!render || !container.current) return;
    return render({
      container: container.current,
      resourceUri: props.resourceUri,
      tool: { ...props.tool, name: props.tool.original ?? props.tool.name },
      arguments: props.args,
      result: props.result,
      ...serverCalls(props.tool.name, props.tool.server),
    });
  }, [render, props.resourceUri, props.result]);
  return (
    <section class="app-slot" aria-label={`MCP App ${props.resourceUri}`}>
      <h3>MCP App</h3>
      {render ? null : (
        <p class="muted">
          This tool links the App <code>{props.resourceUri}</code>; no MCP Apps renderer is registered.
        </p>
      )}
      <div ref={container} />
    </section>
  );
}
