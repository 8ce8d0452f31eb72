/**
 * The place an MCP App renders: the registered renderer (the MCP Apps host bridge) mounts it
 * here; without one, the slot names the App the tool links.
 * @module
 */
import { useEffect, useRef } from 'preact/hooks';
import { call, callId } from './api.js';
import { appRenderer } from './apps.js';

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
  tool: { name: string; _meta?: Record<string, unknown> };
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
      tool: props.tool,
      arguments: props.args,
      result: props.result,
      readResource: (uri) => call('readResource', { uri }),
      callTool: (name, args) => call('callTool', { callId: callId(), name, arguments: args }),
    });
  }, [render, props.resourceUri, props.result]);
  return (
    <section class="app-slot" aria-label={`MCP App ${props.resourceUri}`}>
      <h3>MCP App</h3>
      {render ? null : (
        <p class="muted">
          This tool links the App <code>{props.resourceUri}</code>. Rendering Apps needs the MCP Apps host
          bridge, which is not part of this build.
        </p>
      )}
      <div ref={container} />
    </section>
  );
}
