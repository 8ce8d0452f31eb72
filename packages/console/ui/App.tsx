/**
 * The console page: a header with whom it talks to, the negotiated revision (and a choice to pin
 * one), tabs for Tools, Resources, Prompts, the protocol log and (against a host) the servers, and
 * the dialog for whatever the server asks.
 * @module
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { AuthPanel, type AuthStepEntry } from './AuthPanel.js';
import { call } from './api.js';
import { connectEvents, on } from './bus.js';
import { ErrorAlert } from './common.js';
import { HostPanel, type HostServer, type ServerChange } from './HostPanel.js';
import { LoginPrompt, type LoginWaiting } from './LoginPrompt.js';
import { LogPanel } from './LogPanel.js';
import type { LogEntry } from './logEntry.js';
import { PromptsPanel } from './PromptsPanel.js';
import { type ListName, type ListPage, listPage } from './paging.js';
import { type Question, QuestionDialog } from './QuestionDialog.js';
import { ResourcesPanel } from './ResourcesPanel.js';
import { RevisionsPanel } from './RevisionsPanel.js';
import { type Root, RootsPanel } from './RootsPanel.js';
import { useReconnect } from './reconnect.js';
import { Tabs } from './Tabs.js';
import { type Tool, ToolsPanel } from './ToolsPanel.js';

/** Messages the page keeps; older ones drop off (the backend keeps its own bounded backlog). */
const MAX_LOG = 2000;

interface State {
  mode: 'server' | 'host';
  target: string;
  pinned: 'auto' | '2026' | '2025';
  connected: boolean;
  error?: string;
  serverInfo?: { name: string; version: string; title?: string };
  protocolVersion?: string;
  capabilities?: Record<string, any>;
  instructions?: string;
  servers?: HostServer[];
  roots?: Root[];
  questions?: Question[];
  /** The logins waiting for the person on this page. */
  logins?: LoginWaiting[];
}

type Lists = { tools: Tool[]; resources: any[]; templates: any[]; prompts: any[] };

const EMPTY: Lists = { tools: [], resources: [], templates: [], prompts: [] };

/** The cursor of each list's next page, when it has one. */
type Cursors = Partial<Record<ListName, string>>;

/**
 * The whole page.
 *
 * @example
 * ```tsx
 * render(<App />, document.getElementById('app')!);
 * ```
 */
export function App() {
  const [state, setState] = useState<State>();
  const [lists, setLists] = useState<Lists>(EMPTY);
  const [cursors, setCursors] = useState<Cursors>({});
  const [log, setLog] = useState<LogEntry[]>([]);
  const [questions, setQuestions] = useState<Question[]>([]);
  const [audit, setAudit] = useState<unknown[]>([]);
  const [changes, setChanges] = useState<ServerChange[]>([]);
  const [authSteps, setAuthSteps] = useState<AuthStepEntry[]>([]);
  const [tab, setTab] = useState('tools');
  const [readRequest, setReadRequest] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const refresh = useCallback(async () => {
    try {
      const next = await call<State>('state');
      setState(next);
      setQuestions(next.questions ?? []);
      if (!next.connected) return setLists(EMPTY);
      const caps = next.capabilities ?? {};
      const host = next.mode === 'host';
      const none: ListPage<never> = { items: [] };
      // The first page of each list; the panels ask for more.
      const [tools, resources, templates, prompts] = await Promise.all([
        host || caps.tools ? listPage<Tool>('tools') : none,
        host || caps.resources ? listPage('resources') : none,
        host || caps.resources ? listPage('templates') : none,
        host || caps.prompts ? listPage('prompts') : none,
      ]);
      setLists({
        tools: tools.items,
        resources: resources.items,
        templates: templates.items,
        prompts: prompts.items,
      } as Lists);
      setCursors({
        tools: tools.nextCursor,
        resources: resources.nextCursor,
        templates: templates.nextCursor,
        prompts: prompts.nextCursor,
      });
      setFailure(undefined);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }, []);

  useEffect(() => {
    void refresh();
    // Many events in a row (a backlog replayed on opening, a host's servers starting) make one
    // refresh, not one each.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), 50);
    };
    const stops = [
      on('log', (entry: LogEntry) => setLog((old) => [...old.slice(-(MAX_LOG - 1)), entry])),
      on('state', (next: State) => {
        setState((old) => ({ ...old, ...next }));
        soon();
      }),
      on('listChanged', soon),
      on('question', (question: Question) =>
        setQuestions((old) => [...old.filter((q) => q.id !== question.id), question]),
      ),
      on('answered', ({ id }: { id: string }) => setQuestions((old) => old.filter((q) => q.id !== id))),
      on('audit', (event: unknown) => setAudit((old) => [event, ...old].slice(0, 500))),
      on('serverState', (change: ServerChange) => setChanges((old) => [change, ...old].slice(0, 500))),
      on('authStep', (step: AuthStepEntry) => setAuthSteps((old) => [...old, step].slice(-200))),
      on('login', (logins: LoginWaiting[]) => setState((old) => old && { ...old, logins })),
    ];
    // Listening first, then connecting: the backlog the stream starts with is not missed.
    stops.push(connectEvents());
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [refresh]);

  if (!state) {
    return <main class="loading">{failure ? <p role="alert">{failure}</p> : <p>Connecting…</p>}</main>;
  }
  const caps = state.capabilities ?? {};
  const host = state.mode === 'host';
  /** The next page of a list, when it has one. */
  const more = (kind: ListName) => {
    const cursor = cursors[kind];
    if (!cursor) return undefined;
    return async () => {
      const page = await listPage<any>(kind, cursor);
      setLists((old) => ({ ...old, [kind]: [...old[kind], ...page.items] }));
      setCursors((old) => ({ ...old, [kind]: page.nextCursor }));
    };
  };
  const count = (kind: ListName) => `${lists[kind].length}${cursors[kind] ? '+' : ''}`;
  const tabs = [
    { id: 'tools', label: `Tools (${count('tools')})` },
    { id: 'resources', label: `Resources (${count('resources')})` },
    { id: 'prompts', label: `Prompts (${count('prompts')})` },
    { id: 'log', label: `Protocol log (${log.length})` },
    ...(host ? [] : [{ id: 'revisions', label: 'Both revisions' }]),
    { id: 'roots', label: `Roots (${state.roots?.length ?? 0})` },
    ...(host ? [{ id: 'host', label: 'Servers' }] : []),
    ...(authSteps.length > 0 ? [{ id: 'auth', label: 'Authorization' }] : []),
  ];
  const read = (uri: string) => {
    setReadRequest(uri);
    setTab('resources');
  };
  return (
    <>
      <header class="top">
        <h1>mcpkit console</h1>
        <Header state={state} />
      </header>
      <main>
        <ErrorAlert error={failure} />
        {state.error ? (
          <p role="alert" class="error">
            Could not connect: {state.error}
          </p>
        ) : null}
        <LoginPrompt
          waiting={state.logins ?? []}
          failed={!host && !state.connected && authSteps.some((step) => !step.ok)}
          era={state.pinned}
        />
        <Tabs tabs={tabs} selected={tab} onSelect={setTab}>
          {tab === 'tools' ? (
            <ToolsPanel
              tools={lists.tools}
              target={state.target}
              onRead={read}
              canCompare={!host}
              onMore={more('tools')}
            />
          ) : null}
          {tab === 'resources' ? (
            <ResourcesPanel
              resources={lists.resources}
              templates={lists.templates}
              canSubscribe={host || caps.resources?.subscribe === true}
              canComplete={host || caps.completions !== undefined}
              readRequest={readRequest}
              canCompare={!host}
              onMoreResources={more('resources')}
              onMoreTemplates={more('templates')}
            />
          ) : null}
          {tab === 'prompts' ? (
            <PromptsPanel
              prompts={lists.prompts}
              canComplete={host || caps.completions !== undefined}
              canCompare={!host}
              onMore={more('prompts')}
            />
          ) : null}
          {tab === 'log' ? (
            <LogPanel
              entries={log}
              target={state.target}
              host={host}
              protocolVersion={state.protocolVersion}
            />
          ) : null}
          {tab === 'roots' ? <RootsPanel roots={state.roots ?? []} host={host} /> : null}
          {tab === 'revisions' ? <RevisionsPanel /> : null}
          {tab === 'auth' ? <AuthPanel steps={authSteps} /> : null}
          {tab === 'host' ? (
            <HostPanel servers={state.servers ?? []} audit={audit} tools={lists.tools} changes={changes} />
          ) : null}
        </Tabs>
      </main>
      {questions[0] ? <QuestionDialog key={questions[0].id} question={questions[0]} /> : null}
    </>
  );
}

function Header({ state }: { state: State }) {
  const [era, setEra] = useState(state.pinned);
  const [busy, reconnect] = useReconnect();
  return (
    <div class="header-info">
      <span>
        Target: <code>{state.target}</code>
      </span>
      {state.serverInfo ? (
        <span>
          Server: <strong>{state.serverInfo.title ?? state.serverInfo.name}</strong>{' '}
          {state.serverInfo.version}
        </span>
      ) : null}
      {state.mode === 'server' ? (
        <>
          <span data-testid="revision">
            Revision: <strong>{state.protocolVersion ?? 'not connected'}</strong>
          </span>
          <label for="pin-era">Pin revision</label>
          <select
            id="pin-era"
            value={era}
            onChange={(event) => setEra(event.currentTarget.value as State['pinned'])}
          >
            <option value="auto">auto (newest both speak)</option>
            <option value="2026">2026-07-28</option>
            <option value="2025">2025-11-25 and older</option>
          </select>
          <button type="button" onClick={() => reconnect(era)} disabled={busy}>
            Reconnect
          </button>
        </>
      ) : (
        <span>
          {state.servers?.filter((server) => server.state === 'ready').length ?? 0} of{' '}
          {state.servers?.length ?? 0} servers ready
        </span>
      )}
      <span class={state.connected ? 'state state-ready' : 'state state-failed'}>
        {state.connected ? 'connected' : 'not connected'}
      </span>
    </div>
  );
}
