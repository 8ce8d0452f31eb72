/**
 * The Tools panel: every tool, and for the chosen one a form generated from its `inputSchema`,
 * checked before it is sent; the call with its progress and a Cancel button; the result rendered,
 * its `structuredContent` checked against the tool's `outputSchema`; and an App slot for a tool
 * that links an MCP App.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { AppSlot } from './AppSlot.js';
import { ApiError, call, callId } from './api.js';
import { appResourceUri } from './apps.js';
import { on } from './bus.js';
import { Comparison, type RevisionOutcome } from './Comparison.js';
import { Content } from './Content.js';
import { commandFor } from './commandLine.js';
import { Issues, JsonView } from './common.js';
import { MoreButton } from './MoreButton.js';
import { SchemaForm } from './SchemaForm.js';
import { initialValue, pruned, type Schema } from './schema.js';
import { issuesOf } from './validate.js';

export type Tool = Record<string, any> & {
  name: string;
  inputSchema: Schema;
  server?: string;
  original?: string;
};

/**
 * The Tools panel.
 *
 * @example
 * ```tsx
 * <ToolsPanel tools={tools} target="http://127.0.0.1:3000/mcp" onRead={read} />
 * ```
 */
export function ToolsPanel(props: {
  tools: Tool[];
  target: string;
  onRead: (uri: string) => void;
  /** One server (not a host): the call can be made on both revisions. */
  canCompare: boolean;
  /** Fetches the next page of tools (absent on the last page). */
  onMore?: (() => Promise<void>) | undefined;
}) {
  const [selected, setSelected] = useState<string | undefined>(props.tools[0]?.name);
  const tool = props.tools.find((candidate) => candidate.name === selected) ?? props.tools[0];
  return (
    <div class="split">
      <nav aria-label="Tools" class="item-list">
        <ul>
          {props.tools.map((candidate) => (
            <li key={candidate.name}>
              <button
                type="button"
                aria-pressed={candidate.name === tool?.name}
                onClick={() => setSelected(candidate.name)}
              >
                {candidate.title ?? candidate.name}{' '}
                {candidate.server ? <span class="badge">{candidate.server}</span> : null}
                {candidate.title ? <small class="uri"> {candidate.name}</small> : null}
              </button>
            </li>
          ))}
        </ul>
        {props.tools.length === 0 ? <p class="muted">No tools.</p> : null}
        <MoreButton what="tools" onMore={props.onMore} />
      </nav>
      {tool ? (
        <ToolView
          key={tool.name}
          tool={tool}
          target={props.target}
          onRead={props.onRead}
          canCompare={props.canCompare}
        />
      ) : null}
    </div>
  );
}

interface Outcome {
  result?: Record<string, any>;
  error?: ApiError;
}

function ToolView(props: { tool: Tool; target: string; onRead: (uri: string) => void; canCompare: boolean }) {
  const { tool } = props;
  const [args, setArgs] = useState<unknown>(() => initialValue(tool.inputSchema, tool.inputSchema) ?? {});
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const [running, setRunning] = useState<string | undefined>();
  const [progress, setProgress] = useState<{ progress: number; total?: number; message?: string }>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [sentArgs, setSentArgs] = useState<Record<string, unknown>>({});
  const [sides, setSides] = useState<RevisionOutcome[]>();
  const runningRef = useRef<string | undefined>(undefined);
  runningRef.current = running;
  const support = tool.execution?.taskSupport ?? 'forbidden';
  const [asTask, setAsTask] = useState(support === 'required');
  const [task, setTask] = useState<TaskStatus>();
  /** The last call made: its final task status may arrive after its answer. */
  const lastCall = useRef<string | undefined>(undefined);

  useEffect(() => {
    const stops = [
      on('progress', (update) => {
        if (update.callId === runningRef.current) setProgress(update);
      }),
      on('taskStatus', (update: TaskStatus & { callId: string }) => {
        if (update.callId === lastCall.current) setTask(update);
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, []);

  /** The arguments, checked against the inputSchema; undefined (issues shown) when they do not fit. */
  const checkedArgs = (): Record<string, unknown> | undefined => {
    const value = (pruned(args) ?? {}) as Record<string, unknown>;
    const found = issuesOf(tool.inputSchema, value);
    setIssues(found);
    return found.length > 0 ? undefined : value;
  };

  const compare = async () => {
    const value = checkedArgs();
    if (!value) return;
    setSides(undefined);
    setOutcome(undefined);
    try {
      setSides(await call<RevisionOutcome[]>('compareTool', { name: tool.name, arguments: value }));
    } catch (error) {
      setOutcome({ error: error instanceof ApiError ? error : new ApiError(String(error)) });
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const value = checkedArgs();
    if (!value) return;
    const id = callId();
    lastCall.current = id;
    setRunning(id);
    setTask(undefined);
    setProgress(undefined);
    setOutcome(undefined);
    setSides(undefined);
    setSentArgs(value);
    try {
      const params = { callId: id, name: tool.name, arguments: value, task: asTask };
      setOutcome({ result: await call('callTool', params) });
    } catch (error) {
      setOutcome({ error: error instanceof ApiError ? error : new ApiError(String(error)) });
    } finally {
      setRunning(undefined);
    }
  };

  const command = commandFor(
    props.target,
    {
      method: 'tools/call',
      params: {
        name: tool.original ?? tool.name,
        arguments: pruned(args),
        task: asTask && support === 'optional',
      },
    },
    tool.server,
  );
  const appUri = appResourceUri(tool);
  return (
    <section class="detail" aria-labelledby="tool-heading">
      <h2 id="tool-heading">
        {tool.title ?? tool.name} {tool.server ? <span class="badge">server: {tool.server}</span> : null}
      </h2>
      {tool.title ? <p class="muted">{tool.name}</p> : null}
      {tool.description ? <p>{tool.description}</p> : null}
      <Annotations annotations={tool.annotations} />
      <form onSubmit={submit} noValidate>
        <SchemaForm schema={tool.inputSchema} value={args} onChange={setArgs} idPrefix="arg" />
        <Issues issues={issues} title="The arguments do not fit the tool's inputSchema" />
        {support === 'optional' ? (
          <label class="task-choice">
            <input
              type="checkbox"
              checked={asTask}
              onChange={(event) => setAsTask(event.currentTarget.checked)}
            />{' '}
            Run as a task
          </label>
        ) : support === 'required' ? (
          <p class="muted">This tool runs as a task (its execution.taskSupport is "required").</p>
        ) : null}
        <div class="actions">
          <button type="submit" class="primary" disabled={running !== undefined}>
            Call {tool.name}
          </button>
          {running ? (
            <button type="button" onClick={() => call('cancel', { callId: running })}>
              Cancel
            </button>
          ) : null}
          {props.canCompare ? (
            <button type="button" onClick={compare}>
              Call on both revisions
            </button>
          ) : null}
        </div>
      </form>
      {command ? (
        <details>
          <summary>As a command line</summary>
          <pre class="command">{command}</pre>
        </details>
      ) : null}
      {task ? <TaskView task={task} /> : null}
      {running ? <ProgressView update={progress} /> : null}
      {outcome ? <ToolOutcome tool={tool} outcome={outcome} onRead={props.onRead} /> : null}
      {sides ? <Comparison sides={sides} /> : null}
      {appUri && outcome?.result ? (
        <AppSlot resourceUri={appUri} tool={tool} args={sentArgs} result={outcome.result} />
      ) : null}
    </section>
  );
}

/** A task's state as the server reported it (tasks/get or a status notification). */
interface TaskStatus {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
}

function TaskView({ task }: { task: TaskStatus }) {
  return (
    <p class="task-status" role="status" aria-label="Task status">
      Task <code>{task.taskId}</code>:{' '}
      <strong class={`task-${task.status}`}>{task.status.replace('_', ' ')}</strong>
      {task.statusMessage ? ` (${task.statusMessage})` : null}
    </p>
  );
}

function Annotations({ annotations }: { annotations?: Record<string, unknown> }) {
  if (!annotations) return null;
  const hints = Object.entries(annotations).filter(([key, value]) => key.endsWith('Hint') && value === true);
  if (hints.length === 0) return null;
  return (
    <p>
      {hints.map(([key]) => (
        <span key={key} class="badge">
          {key.replace(/Hint$/, '')}
        </span>
      ))}
    </p>
  );
}

function ProgressView({ update }: { update?: { progress: number; total?: number; message?: string } }) {
  return (
    <div class="progress" role="status">
      <label for="call-progress">{update?.message ?? 'Running…'}</label>
      <progress id="call-progress" value={update?.progress} max={update?.total} />
      {update ? (
        <span class="muted">
          {update.progress}
          {update.total === undefined ? '' : ` / ${update.total}`}
        </span>
      ) : null}
    </div>
  );
}

function ToolOutcome(props: { tool: Tool; outcome: Outcome; onRead: (uri: string) => void }) {
  const { result, error } = props.outcome;
  if (error) {
    return (
      <div class="result error-box" role="alert">
        <h3>Error{error.code === undefined ? '' : ` ${error.code}`}</h3>
        <p>{error.message}</p>
      </div>
    );
  }
  if (!result) return null;
  const outputSchema = props.tool.outputSchema as Schema | undefined;
  const structured = result.structuredContent;
  const structuredIssues = outputSchema && structured !== undefined ? issuesOf(outputSchema, structured) : [];
  return (
    <div class={result.isError ? 'result error-box' : 'result'} aria-live="polite">
      <h3>{result.isError ? 'The tool reported an error' : 'Result'}</h3>
      <Content blocks={result.content ?? []} onRead={props.onRead} />
      {structured !== undefined ? (
        <div>
          <h4>Structured content</h4>
          <JsonView value={structured} />
          {outputSchema ? (
            structuredIssues.length === 0 ? (
              <p class="ok">Matches the tool's outputSchema.</p>
            ) : (
              <Issues issues={structuredIssues} title="Does not match the tool's outputSchema" />
            )
          ) : null}
        </div>
      ) : outputSchema && !result.isError ? (
        <p class="error">The tool declares an outputSchema but sent no structuredContent.</p>
      ) : null}
    </div>
  );
}
