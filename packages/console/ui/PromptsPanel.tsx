/**
 * The Prompts panel: each prompt's arguments (with the server's completions) and the messages it
 * renders to.
 * @module
 */
import { useState } from 'preact/hooks';
import { ApiError, call } from './api.js';
import { CompareOnBothRevisions } from './Comparison.js';
import { Content } from './Content.js';
import { ErrorAlert } from './common.js';
import { MoreButton } from './MoreButton.js';

type Prompt = Record<string, any> & { name: string };

/**
 * The Prompts panel.
 *
 * @example
 * ```tsx
 * <PromptsPanel prompts={prompts} canComplete={false} />
 * ```
 */
export function PromptsPanel(props: {
  prompts: Prompt[];
  canComplete: boolean;
  /** One server (not a host): a prompt can be got on both revisions. */
  canCompare?: boolean;
  /** Fetches the next page of prompts (absent on the last page). */
  onMore?: (() => Promise<void>) | undefined;
}) {
  const [selected, setSelected] = useState<string | undefined>(props.prompts[0]?.name);
  const prompt = props.prompts.find((candidate) => candidate.name === selected) ?? props.prompts[0];
  return (
    <div class="split">
      <nav aria-label="Prompts" class="item-list">
        <ul>
          {props.prompts.map((candidate) => (
            <li key={candidate.name}>
              <button
                type="button"
                aria-pressed={candidate.name === prompt?.name}
                onClick={() => setSelected(candidate.name)}
              >
                {candidate.title ?? candidate.name}{' '}
                {candidate.server ? <span class="badge">{candidate.server}</span> : null}
              </button>
            </li>
          ))}
        </ul>
        {props.prompts.length === 0 ? <p class="muted">No prompts.</p> : null}
        <MoreButton what="prompts" onMore={props.onMore} />
      </nav>
      {prompt ? (
        <PromptView
          key={prompt.name}
          prompt={prompt}
          canComplete={props.canComplete}
          canCompare={props.canCompare === true}
        />
      ) : null}
    </div>
  );
}

function PromptView(props: { prompt: Prompt; canComplete: boolean; canCompare: boolean }) {
  const { prompt } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [options, setOptions] = useState<Record<string, string[]>>({});
  const [result, setResult] = useState<any>();
  const [error, setError] = useState<string>();
  const args: { name: string; description?: string; required?: boolean }[] = prompt.arguments ?? [];
  const complete = async (name: string, value: string) => {
    if (!props.canComplete) return;
    const answer = await call<{ completion: { values: string[] } }>('complete', {
      params: {
        ref: { type: 'ref/prompt', name: prompt.name },
        argument: { name, value },
        context: { arguments: values },
      },
    }).catch(() => undefined);
    if (answer) setOptions((old) => ({ ...old, [name]: answer.completion.values }));
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const missing = args.filter((arg) => arg.required && !values[arg.name]);
    if (missing.length > 0) {
      setError(`Required: ${missing.map((arg) => arg.name).join(', ')}`);
      return;
    }
    try {
      setResult(await call('getPrompt', { name: prompt.name, arguments: values }));
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <section class="detail" aria-labelledby="prompt-heading">
      <h2 id="prompt-heading">{prompt.title ?? prompt.name}</h2>
      {prompt.description ? <p>{prompt.description}</p> : null}
      <form onSubmit={submit} noValidate>
        {args.map((arg) => (
          <div class="field" key={arg.name}>
            <span class="label-line">
              <label for={`prompt-${arg.name}`}>{arg.name}</label>
              {arg.required ? <span aria-hidden="true"> *</span> : null}
            </span>
            <input
              id={`prompt-${arg.name}`}
              list={`prompt-${arg.name}-options`}
              required={arg.required}
              aria-describedby={arg.description ? `prompt-${arg.name}-desc` : undefined}
              value={values[arg.name] ?? ''}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setValues((old) => ({ ...old, [arg.name]: value }));
                void complete(arg.name, value);
              }}
            />
            <datalist id={`prompt-${arg.name}-options`}>
              {(options[arg.name] ?? []).map((option) => (
                <option key={option} value={option} />
              ))}
            </datalist>
            {arg.description ? (
              <small id={`prompt-${arg.name}-desc`} class="muted">
                {arg.description}
              </small>
            ) : null}
          </div>
        ))}
        <button type="submit" class="primary">
          Get {prompt.name}
        </button>
      </form>
      {props.canCompare ? (
        <CompareOnBothRevisions
          label="Get on both revisions"
          method="prompts/get"
          params={{ name: prompt.name, arguments: values }}
        />
      ) : null}
      <ErrorAlert error={error} />
      {result ? (
        <div class="result" aria-live="polite">
          <h3>Messages</h3>
          {result.description ? <p class="muted">{result.description}</p> : null}
          {(result.messages ?? []).map((message: any, index: number) => (
            <div class="message" key={index}>
              <div class="role">{message.role}</div>
              <Content blocks={[message.content]} />
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}
