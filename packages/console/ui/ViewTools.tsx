/**
 * "Tools of this view": the tools an MCP App's view offers the host (it declared
 * `appCapabilities.tools`), listed under the view, each with a form from its `inputSchema`,
 * checked before the call, which goes to the view through the bridge; its result is shown as the
 * view's own words (a view is untrusted: nothing it answers is run or followed).
 * @module
 */
import type { AppHandle } from '@mcpkit/apps/bridge';
import type { CallToolResult, Tool } from '@mcpkit/core';
import { useEffect, useState } from 'preact/hooks';
import { Content } from './Content.js';
import { ErrorAlert, Issues, JsonView } from './common.js';
import { SchemaForm } from './SchemaForm.js';
import { initialValue, pruned } from './schema.js';
import { issuesOf } from './validate.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The view's tools, listed again whenever `version` changes (the view said its list changed).
 *
 * @example
 * ```tsx
 * <ViewTools handle={handle} version={0} />
 * ```
 */
export function ViewTools(props: { handle: AppHandle; version: number }) {
  const [tools, setTools] = useState<Tool[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    props.handle.listViewTools().then(
      (listed) => {
        if (!live) return;
        setTools(listed);
        setError(undefined);
      },
      (failure: unknown) => live && setError(`The view's tools could not be listed: ${message(failure)}`),
    );
    return () => {
      live = false;
    };
  }, [props.handle, props.version]);
  return (
    <section class="view-tools" aria-label="Tools of this view">
      <h4>Tools of this view</h4>
      <ErrorAlert error={error} />
      {tools?.length === 0 ? <p class="muted">The view offers no tools now.</p> : null}
      {tools?.map((tool) => (
        <ViewTool key={tool.name} handle={props.handle} tool={tool} />
      ))}
    </section>
  );
}

function ViewTool({ handle, tool }: { handle: AppHandle; tool: Tool }) {
  const schema = tool.inputSchema;
  const [args, setArgs] = useState<unknown>(() => initialValue(schema, schema) ?? {});
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const [result, setResult] = useState<CallToolResult>();
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState(false);
  const run = async () => {
    const value = (pruned(args) ?? {}) as Record<string, unknown>;
    const found = issuesOf(schema, value);
    setIssues(found);
    if (found.length > 0) return;
    setRunning(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await handle.callViewTool(tool.name, value));
    } catch (failure) {
      setError(`The view's tool failed: ${message(failure)}`);
    } finally {
      setRunning(false);
    }
  };
  return (
    <form
      class="view-tool"
      noValidate
      aria-label={`View tool ${tool.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void run();
      }}
    >
      <h5>{tool.title ?? tool.name}</h5>
      {tool.description ? <p class="muted">{tool.description}</p> : null}
      <SchemaForm schema={schema} value={args} onChange={setArgs} idPrefix={`view-${tool.name}`} />
      <Issues issues={issues} title="The arguments do not fit the tool's inputSchema" />
      <div class="actions">
        <button type="submit" disabled={running}>
          Call {tool.name} in the view
        </button>
      </div>
      <ErrorAlert error={error} />
      {result ? (
        <section class="result" aria-label={`Result of ${tool.name}`}>
          {result.isError ? <p class="error">The view reports an error.</p> : null}
          <Content blocks={result.content as Record<string, unknown>[]} />
          {result.structuredContent ? <JsonView value={result.structuredContent} /> : null}
        </section>
      ) : null}
    </form>
  );
}
