/**
 * One request's answers on 2025-11-25 and on 2026-07-28 side by side (a tool call, a read, a
 * prompt, a list), whether they agree, and field by field where they do not.
 * @module
 */
import { compareAnswers } from '@mcpkit/console/replay';
import { useState } from 'preact/hooks';
import { ApiError, call } from './api.js';
import { Content, EmbeddedResource } from './Content.js';
import { ErrorAlert, JsonView } from './common.js';
import { DiffView } from './DiffView.js';

/**
 * What one revision answered, as the backend sends it.
 *
 * @example
 * ```ts
 * const side: RevisionOutcome = { era: '2025', protocolVersion: '2025-11-25', result: { content: [] } };
 * ```
 */
export interface RevisionOutcome {
  era: '2025' | '2026';
  protocolVersion?: string;
  result?: any;
  error?: { message: string; code?: number };
}

/** The heading of a revision's column. */
function revisionName(side: RevisionOutcome | undefined): string {
  return side?.protocolVersion ?? `${side?.era ?? '?'} era (not connected)`;
}

/**
 * The two answers side by side, and the diff between them.
 *
 * @example
 * ```tsx
 * <Comparison method="tools/call" sides={sides} />
 * ```
 */
export function Comparison({ sides, method = 'tools/call' }: { sides: RevisionOutcome[]; method?: string }) {
  const [older, newer] = sides;
  const { differences } =
    older && newer ? compareAnswers(method, older, newer) : { differences: [] as never[] };
  const same = sides.length === 2 && differences.length === 0;
  return (
    <section class="comparison" aria-label="Both revisions">
      <h3>Both revisions</h3>
      <p role="status" class={same ? 'ok' : 'error'}>
        {same
          ? 'Same result on both revisions.'
          : `The results differ (${differences.length} ${differences.length === 1 ? 'difference' : 'differences'}).`}
      </p>
      <DiffView differences={differences} before={revisionName(older)} after={revisionName(newer)} />
      <div class="columns">
        {sides.map((side) => (
          <div key={side.era} class="column">
            <h4>{revisionName(side)}</h4>
            {side.error ? (
              <p class="error">
                Error{side.error.code === undefined ? '' : ` ${side.error.code}`}: {side.error.message}
              </p>
            ) : (
              <Answer method={method} result={side.result} />
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

/** An answer as its own panel shows it. */
function Answer({ method, result }: { method: string; result: any }) {
  switch (method) {
    case 'tools/call':
      return (
        <>
          <Content blocks={result?.content ?? []} />
          {result?.structuredContent !== undefined ? <JsonView value={result.structuredContent} /> : null}
        </>
      );
    case 'resources/read':
      return (
        <>
          {(result?.contents ?? []).map((content: any, index: number) => (
            <EmbeddedResource key={index} resource={content} />
          ))}
        </>
      );
    case 'prompts/get':
      return (
        <>
          {(result?.messages ?? []).map((message: any, index: number) => (
            <div class="message" key={index}>
              <div class="role">{message.role}</div>
              <Content blocks={[message.content]} />
            </div>
          ))}
        </>
      );
    default: {
      const items: any[] = Object.values(result ?? {}).find(Array.isArray) ?? [];
      return (
        <ul class="compared-list">
          {items.map((item, index) => (
            <li key={index}>
              <code>{item?.name ?? item?.uri ?? item?.uriTemplate ?? index}</code>
            </li>
          ))}
        </ul>
      );
    }
  }
}

/**
 * A button that sends one request on both revisions, and the comparison it brings back.
 *
 * @example
 * ```tsx
 * <CompareOnBothRevisions label="Read on both revisions" method="resources/read" params={{ uri }} />
 * ```
 */
export function CompareOnBothRevisions(props: {
  label: string;
  method: string;
  params: Record<string, unknown>;
}) {
  const [sides, setSides] = useState<RevisionOutcome[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const compare = async () => {
    setBusy(true);
    setSides(undefined);
    try {
      setSides(await call<RevisionOutcome[]>('compare', { method: props.method, params: props.params }));
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="compare-both">
      <button type="button" onClick={compare} disabled={busy}>
        {props.label}
      </button>
      <ErrorAlert error={error} />
      {sides ? <Comparison method={props.method} sides={sides} /> : null}
    </div>
  );
}
