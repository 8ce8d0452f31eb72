/**
 * What the server asks the person, one question at a time, in a modal dialog: an elicitation
 * form (generated from its `requestedSchema`, checked before it is sent) or URL, a sampling
 * request to approve with an editable reply or reject, and (against a host) consent to a tool call;
 * and what an MCP App's view asks: a sampling request the same way, or files to save (each named,
 * typed and sized), labelled with the tool whose view asks.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from './api.js';
import { Content } from './Content.js';
import { Issues, JsonView } from './common.js';
import { SchemaForm } from './SchemaForm.js';
import { initialValue, pruned, type Schema } from './schema.js';
import { issuesOf } from './validate.js';

/**
 * A question from the backend.
 *
 * @example
 * ```ts
 * const question: Question = { id: 'q1', kind: 'sampling', params: { messages: [] } };
 * ```
 */
export interface Question {
  id: string;
  kind: 'elicitation' | 'elicitationUrl' | 'sampling' | 'toolConsent' | 'download';
  server?: string;
  /** When an App's view asks: the tool whose view it is. */
  view?: string;
  params: any;
}

const TITLES: Readonly<Record<Question['kind'], string>> = {
  elicitation: 'The server asks for information',
  elicitationUrl: 'The server asks you to open a page',
  sampling: 'The server asks for a model reply',
  toolConsent: 'Allow this tool call?',
  download: 'Save files from an App?',
};

/** Who asks: the server (against a host), or the App view of a tool (and its server). */
function Asker({ question }: { question: Question }) {
  if (question.view)
    return (
      <p class="muted">
        From the App view of tool <strong>{question.view}</strong>
        {question.server ? ` (server ${question.server})` : ''}: the view wrote this, not the console.
      </p>
    );
  return question.server ? <p class="muted">From server {question.server}</p> : null;
}

/**
 * The dialog for the oldest waiting question.
 *
 * @example
 * ```tsx
 * <QuestionDialog question={questions[0]} />
 * ```
 */
export function QuestionDialog({ question }: { question: Question }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [question.id]);
  const answer = (value: unknown) => void call('answer', { id: question.id, answer: value }).catch(() => {});
  // Escape means "not now": cancel an elicitation, reject sampling, deny a tool call.
  const dismiss = () =>
    answer(
      question.kind === 'sampling'
        ? { approve: false }
        : question.kind === 'toolConsent'
          ? { decision: 'deny' }
          : question.kind === 'download'
            ? { accept: false }
            : { action: 'cancel' },
    );
  return (
    <dialog
      ref={dialog}
      class="question"
      aria-labelledby="question-heading"
      onCancel={(event) => {
        event.preventDefault();
        dismiss();
      }}
    >
      <h2 id="question-heading">
        {question.view && question.kind === 'sampling'
          ? 'An App asks for a model reply'
          : TITLES[question.kind]}
      </h2>
      <Asker question={question} />
      {question.kind === 'elicitation' ? (
        <ElicitationForm key={question.id} question={question} answer={answer} />
      ) : null}
      {question.kind === 'elicitationUrl' ? <ElicitationUrl question={question} answer={answer} /> : null}
      {question.kind === 'sampling' ? (
        <SamplingForm key={question.id} question={question} answer={answer} />
      ) : null}
      {question.kind === 'toolConsent' ? <ToolConsent question={question} answer={answer} /> : null}
      {question.kind === 'download' ? <DownloadFiles question={question} answer={answer} /> : null}
    </dialog>
  );
}

function ElicitationForm({ question, answer }: { question: Question; answer: (value: unknown) => void }) {
  const schema = (question.params.requestedSchema ?? { type: 'object' }) as Schema;
  const [value, setValue] = useState<unknown>(() => initialValue(schema, schema) ?? {});
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const content = pruned(value) ?? {};
        const found = issuesOf(schema, content);
        setIssues(found);
        if (found.length === 0) answer({ action: 'accept', content });
      }}
    >
      <p class="message-text">{question.params.message}</p>
      <SchemaForm schema={schema} value={value} onChange={setValue} idPrefix="elicit" />
      <Issues issues={issues} title="The answer does not fit what the server asked for" />
      <ElicitationActions answer={answer} submits />
    </form>
  );
}

function ElicitationUrl({ question, answer }: { question: Question; answer: (value: unknown) => void }) {
  const url = String(question.params.url ?? '');
  const safe = /^https?:\/\//i.test(url);
  return (
    <div>
      <p class="message-text">{question.params.message}</p>
      <p>
        {safe ? (
          <a href={url} target="_blank" rel="noopener noreferrer">
            {url}
          </a>
        ) : (
          <code>{url}</code>
        )}
      </p>
      <ElicitationActions answer={answer} />
    </div>
  );
}

/** An elicitation's three answers; in a form (`submits`), Accept submits it so the form checks its fields first. */
function ElicitationActions({ answer, submits }: { answer: (value: unknown) => void; submits?: boolean }) {
  return (
    <div class="actions">
      {submits ? (
        <button type="submit" class="primary">
          Accept
        </button>
      ) : (
        <button type="button" class="primary" onClick={() => answer({ action: 'accept' })}>
          Accept
        </button>
      )}
      <button type="button" onClick={() => answer({ action: 'decline' })}>
        Decline
      </button>
      <button type="button" onClick={() => answer({ action: 'cancel' })}>
        Cancel
      </button>
    </div>
  );
}

function SamplingForm({ question, answer }: { question: Question; answer: (value: unknown) => void }) {
  const [reply, setReply] = useState('');
  const params = question.params;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        answer({ approve: true, text: reply });
      }}
    >
      {params.systemPrompt ? (
        <p>
          <strong>System prompt:</strong> {params.systemPrompt}
        </p>
      ) : null}
      <div class="messages">
        {(params.messages ?? []).map((message: any, index: number) => (
          <div class="message" key={index}>
            <div class="role">{message.role}</div>
            <Content blocks={Array.isArray(message.content) ? message.content : [message.content]} />
          </div>
        ))}
      </div>
      <p class="muted">
        At most {params.maxTokens} tokens
        {params.modelPreferences?.hints?.length
          ? `; the server would like ${params.modelPreferences.hints.map((hint: { name?: string }) => hint.name).join(', ')}`
          : ''}
        .
      </p>
      <div class="field">
        <label for="sampling-reply">Reply (sent as the model's message)</label>
        <textarea
          id="sampling-reply"
          rows={4}
          value={reply}
          onInput={(event) => setReply(event.currentTarget.value)}
        />
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          Approve
        </button>
        <button type="button" onClick={() => answer({ approve: false })}>
          Reject
        </button>
      </div>
    </form>
  );
}

function ToolConsent({ question, answer }: { question: Question; answer: (value: unknown) => void }) {
  const { tool, arguments: args, annotations } = question.params;
  return (
    <div>
      <p>
        Server <strong>{question.server}</strong> would run tool <strong>{tool}</strong> with:
      </p>
      <JsonView value={args} />
      {annotations ? (
        <p class="muted">Annotations (hints from the server): {JSON.stringify(annotations)}</p>
      ) : null}
      <div class="actions">
        <button type="button" class="primary" onClick={() => answer({ decision: 'once' })}>
          Allow once
        </button>
        <button type="button" onClick={() => answer({ decision: 'session' })}>
          Allow for this session
        </button>
        <button type="button" onClick={() => answer({ decision: 'deny' })}>
          Deny
        </button>
      </div>
    </div>
  );
}

/** A size as people read it. */
function bytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

type OfferedFile = { name: string; mimeType?: string; size?: number; url?: string };

function DownloadFiles({ question, answer }: { question: Question; answer: (value: unknown) => void }) {
  const files: OfferedFile[] = question.params.files ?? [];
  return (
    <div>
      <ul class="offered-files" aria-label="Files">
        {files.map((file, index) => (
          <li key={index}>
            <strong>{file.name}</strong>
            {file.url ? (
              <>
                {' '}
                — a link, opened in a new tab on yes: <code>{file.url}</code>
              </>
            ) : (
              <>
                {' '}
                ({file.mimeType || 'no type'}, {bytes(file.size ?? 0)})
              </>
            )}
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="primary" onClick={() => answer({ accept: true })}>
          Save
        </button>
        <button type="button" onClick={() => answer({ accept: false })}>
          Don't save
        </button>
      </div>
    </div>
  );
}
