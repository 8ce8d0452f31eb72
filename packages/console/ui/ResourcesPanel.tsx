/**
 * The Resources panel: the resources and templates the server lists; a template's variables with
 * the server's completions; reading one; subscribing to one and watching its updates arrive live.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { parseTemplate } from 'url-template';
import { ApiError, call } from './api.js';
import { on } from './bus.js';
import { CompareOnBothRevisions } from './Comparison.js';
import { EmbeddedResource } from './Content.js';
import { ErrorAlert } from './common.js';
import { MoreButton } from './MoreButton.js';

type Item = Record<string, any>;

/** The variable names of an RFC 6570 template (expansion itself is the `url-template` library's). */
function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^{}]*)\}/g)) {
    for (const spec of expression!.replace(/^[+#./;?&]/, '').split(',')) {
      const name = spec.replace(/\*$/, '').split(':')[0]!.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/**
 * The Resources panel.
 *
 * @example
 * ```tsx
 * <ResourcesPanel resources={resources} templates={templates} canSubscribe={true} readRequest={uri} />
 * ```
 */
export function ResourcesPanel(props: {
  resources: Item[];
  templates: Item[];
  canSubscribe: boolean;
  canComplete: boolean;
  /** A URI another panel asked to read (a resource link in a tool result). */
  readRequest: string | undefined;
  /** One server (not a host): a read can be made on both revisions. */
  canCompare?: boolean;
  /** Fetch the next page of resources or templates (absent on the last page). */
  onMoreResources?: (() => Promise<void>) | undefined;
  onMoreTemplates?: (() => Promise<void>) | undefined;
}) {
  const [uri, setUri] = useState<string | undefined>(props.readRequest);
  useEffect(() => {
    if (props.readRequest) setUri(props.readRequest);
  }, [props.readRequest]);
  return (
    <div class="split">
      <nav aria-label="Resources" class="item-list">
        <h2 class="list-heading">Resources</h2>
        <ul>
          {props.resources.map((resource) => (
            <li key={resource.uri}>
              <button type="button" aria-pressed={resource.uri === uri} onClick={() => setUri(resource.uri)}>
                {resource.title ?? resource.name ?? resource.uri}{' '}
                {resource.server ? <span class="badge">{resource.server}</span> : null}
                <small class="uri"> {resource.uri}</small>
              </button>
            </li>
          ))}
        </ul>
        {props.resources.length === 0 ? <p class="muted">No resources.</p> : null}
        <MoreButton what="resources" onMore={props.onMoreResources} />
        <h2 class="list-heading">Templates</h2>
        {props.templates.map((template) => (
          <TemplateForm
            key={template.uriTemplate}
            template={template}
            canComplete={props.canComplete}
            onRead={setUri}
          />
        ))}
        {props.templates.length === 0 ? <p class="muted">No templates.</p> : null}
        <MoreButton what="templates" onMore={props.onMoreTemplates} />
      </nav>
      {uri ? (
        <ResourceView
          key={uri}
          uri={uri}
          canSubscribe={props.canSubscribe}
          canCompare={props.canCompare === true}
        />
      ) : (
        <p class="muted detail">Choose a resource.</p>
      )}
    </div>
  );
}

function TemplateForm(props: { template: Item; canComplete: boolean; onRead: (uri: string) => void }) {
  const template = String(props.template.uriTemplate);
  const names = templateVariables(template);
  const [values, setValues] = useState<Record<string, string>>({});
  const [options, setOptions] = useState<Record<string, string[]>>({});
  const idBase = `tpl-${template.replace(/[^A-Za-z0-9]/g, '_')}`;
  const complete = async (name: string, value: string) => {
    if (!props.canComplete) return;
    const result = await call<{ completion: { values: string[] } }>('complete', {
      params: {
        ref: { type: 'ref/resource', uri: template },
        argument: { name, value },
        context: { arguments: values },
      },
    }).catch(() => undefined);
    if (result) setOptions((old) => ({ ...old, [name]: result.completion.values }));
  };
  return (
    <form
      class="template"
      onSubmit={(event) => {
        event.preventDefault();
        props.onRead(parseTemplate(template).expand(values));
      }}
    >
      <div class="muted">
        <code>{template}</code>
      </div>
      {names.map((name) => (
        <div class="field" key={name}>
          <label for={`${idBase}-${name}`}>{name}</label>
          <input
            id={`${idBase}-${name}`}
            list={`${idBase}-${name}-options`}
            value={values[name] ?? ''}
            onInput={(event) => {
              const value = event.currentTarget.value;
              setValues((old) => ({ ...old, [name]: value }));
              void complete(name, value);
            }}
          />
          <datalist id={`${idBase}-${name}-options`}>
            {(options[name] ?? []).map((option) => (
              <option key={option} value={option} />
            ))}
          </datalist>
        </div>
      ))}
      <button type="submit">Read {props.template.name ?? template}</button>
    </form>
  );
}

function ResourceView(props: { uri: string; canSubscribe: boolean; canCompare: boolean }) {
  const [contents, setContents] = useState<any[]>();
  const [error, setError] = useState<string>();
  const [subscribed, setSubscribed] = useState(false);
  const [updates, setUpdates] = useState<string[]>([]);
  const read = async () => {
    try {
      const result = await call<{ contents: Item[] }>('readResource', { uri: props.uri });
      setContents(result.contents);
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  useEffect(() => {
    void read();
  }, [props.uri]);
  useEffect(
    () =>
      on('resourceUpdated', ({ uri }) => {
        if (uri !== props.uri || !subscribed) return;
        setUpdates((old) => [new Date().toLocaleTimeString(), ...old].slice(0, 20));
        void read();
      }),
    [props.uri, subscribed],
  );
  useEffect(
    () => () => {
      if (subscribed) void call('unsubscribe', { uri: props.uri }).catch(() => {});
    },
    [subscribed, props.uri],
  );
  const toggle = async () => {
    await call(subscribed ? 'unsubscribe' : 'subscribe', { uri: props.uri });
    setSubscribed(!subscribed);
  };
  return (
    <section class="detail" aria-labelledby="resource-heading">
      <h2 id="resource-heading">
        <code>{props.uri}</code>
      </h2>
      <div class="actions">
        <button type="button" onClick={read}>
          Read again
        </button>
        {props.canSubscribe ? (
          <button type="button" aria-pressed={subscribed} onClick={toggle}>
            {subscribed ? 'Unsubscribe' : 'Subscribe'}
          </button>
        ) : null}
      </div>
      {subscribed ? (
        <div role="status" class="updates">
          {updates.length === 0
            ? 'Subscribed; waiting for updates…'
            : `${updates.length} update(s), last at ${updates[0]}`}
        </div>
      ) : null}
      <ErrorAlert error={error} />
      {(contents ?? []).map((content, index) => (
        <EmbeddedResource key={index} resource={content} />
      ))}
      {props.canCompare ? (
        <CompareOnBothRevisions
          label="Read on both revisions"
          method="resources/read"
          params={{ uri: props.uri }}
        />
      ) : null}
    </section>
  );
}
