/**
 * A form generated from a JSON Schema: nested objects as fieldsets, arrays with add and remove,
 * enums as selects, `oneOf`/`anyOf` as a choice of variant, nullable values with a "null" box,
 * defaults filled in, formats as the matching input type, anything else as JSON.
 * @module
 */
import { useState } from 'preact/hooks';
import {
  choices,
  chosenVariant,
  fieldKind,
  initialValue,
  nullable,
  resolve,
  type Schema,
  variantLabel,
  variants,
} from './schema.js';

/** The input type of a string format. */
const FORMAT_INPUT: Readonly<Record<string, 'email' | 'url' | 'date' | 'time' | 'datetime-local'>> = {
  email: 'email',
  uri: 'url',
  url: 'url',
  date: 'date',
  time: 'time',
  'date-time': 'datetime-local',
};

interface FieldProps {
  schema: Schema | boolean | undefined;
  root: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The element id, unique in the page. */
  id: string;
  label: string;
  required?: boolean;
}

/**
 * The whole form of an object schema (a tool's `inputSchema`, an elicitation's `requestedSchema`).
 *
 * @example
 * ```tsx
 * <SchemaForm schema={tool.inputSchema} value={args} onChange={setArgs} idPrefix="tool" />
 * ```
 */
export function SchemaForm(props: {
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  idPrefix: string;
}) {
  const { schema, value, onChange, idPrefix } = props;
  const properties = Object.entries<Schema>(resolve(schema, schema).properties ?? {});
  if (properties.length === 0) return <p class="muted">No arguments.</p>;
  return <ObjectFields schema={schema} root={schema} value={value} onChange={onChange} id={idPrefix} />;
}

function ObjectFields(props: Omit<FieldProps, 'label'>) {
  const schema = resolve(props.schema, props.root);
  const object = (props.value ?? {}) as Record<string, unknown>;
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  return (
    <div class="fields">
      {Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => (
        <Field
          key={name}
          schema={property}
          root={props.root}
          id={`${props.id}-${name}`}
          label={resolve(property, props.root).title ?? name}
          required={required.includes(name)}
          value={object[name]}
          onChange={(next) => props.onChange({ ...object, [name]: next })}
        />
      ))}
    </div>
  );
}

function Field(props: FieldProps) {
  const schema = resolve(props.schema, props.root);
  const optionalNull = nullable(schema);
  if (optionalNull) return <NullableField {...props} schema={optionalNull.inner} />;
  const kind = fieldKind(schema);
  const description = schema.description ? (
    <small id={`${props.id}-desc`} class="muted">
      {schema.description}
    </small>
  ) : null;
  const describedBy = schema.description ? `${props.id}-desc` : undefined;
  // The asterisk stays outside the label, so the field's accessible name is the name alone
  // (screen readers announce `required` from the attribute).
  const label = (
    <span class="label-line">
      <label for={props.id}>{props.label}</label>
      {props.required ? <span aria-hidden="true"> *</span> : null}
    </span>
  );
  switch (kind) {
    case 'object':
      return (
        <fieldset aria-describedby={describedBy}>
          <legend>{props.label}</legend>
          {description}
          <ObjectFields {...props} schema={schema} />
        </fieldset>
      );
    case 'array':
      return <ArrayField {...props} schema={schema} description={description} />;
    case 'variants':
      return <VariantField {...props} schema={schema} description={description} />;
    case 'boolean':
      return (
        <div class="field check">
          <input
            id={props.id}
            type="checkbox"
            checked={props.value === true}
            aria-describedby={describedBy}
            onChange={(event) => props.onChange(event.currentTarget.checked)}
          />
          {label}
          {description}
        </div>
      );
    case 'enum':
      return (
        <div class="field">
          {label}
          <select
            id={props.id}
            required={props.required}
            aria-describedby={describedBy}
            value={props.value === undefined ? '' : JSON.stringify(props.value)}
            onChange={(event) => {
              const picked = event.currentTarget.value;
              props.onChange(picked === '' ? undefined : JSON.parse(picked));
            }}
          >
            <option value="">(choose)</option>
            {(choices(schema) ?? []).map((option) => (
              <option key={JSON.stringify(option.value)} value={JSON.stringify(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
          {description}
        </div>
      );
    case 'const':
      return (
        <div class="field">
          {label}
          <output id={props.id}>{JSON.stringify(schema.const)}</output>
        </div>
      );
    case 'number':
    case 'integer':
      return (
        <div class="field">
          {label}
          <input
            id={props.id}
            type="number"
            step={kind === 'integer' ? 1 : 'any'}
            min={schema.minimum}
            max={schema.maximum}
            required={props.required}
            aria-describedby={describedBy}
            value={typeof props.value === 'number' ? String(props.value) : ''}
            onInput={(event) => {
              const text = event.currentTarget.value;
              props.onChange(text === '' ? undefined : Number(text));
            }}
          />
          {description}
        </div>
      );
    case 'string':
      return (
        <div class="field">
          {label}
          <input
            id={props.id}
            type={(FORMAT_INPUT[schema.format] ?? 'text') as 'text'}
            required={props.required}
            aria-describedby={describedBy}
            value={typeof props.value === 'string' ? props.value : ''}
            onInput={(event) => {
              const text = event.currentTarget.value;
              props.onChange(text === '' && !props.required ? undefined : text);
            }}
          />
          {description}
        </div>
      );
    default:
      return <JsonField {...props} description={description} />;
  }
}

function NullableField(props: FieldProps) {
  const isNull = props.value === null;
  return (
    <div class="nullable">
      <div class="field check">
        <input
          id={`${props.id}-null`}
          type="checkbox"
          checked={isNull}
          onChange={(event) =>
            props.onChange(event.currentTarget.checked ? null : initialValue(props.schema, props.root))
          }
        />
        <label for={`${props.id}-null`}>{props.label}: null</label>
      </div>
      {isNull ? null : <Field {...props} />}
    </div>
  );
}

function ArrayField(props: FieldProps & { schema: Schema; description: unknown }) {
  const items = Array.isArray(props.value) ? props.value : [];
  const options = choices(resolve(props.schema.items, props.root));
  if (options) return <ChoiceList {...props} options={options} items={items} />;
  return (
    <fieldset>
      <legend>{props.label}</legend>
      {props.description}
      {items.map((item, index) => (
        <div class="array-item" key={index}>
          <Field
            schema={props.schema.items}
            root={props.root}
            id={`${props.id}-${index}`}
            label={`${props.label} ${index + 1}`}
            value={item}
            onChange={(next) => props.onChange(items.map((old, at) => (at === index ? next : old)))}
          />
          <button type="button" onClick={() => props.onChange(items.filter((_, at) => at !== index))}>
            Remove {props.label} {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() => props.onChange([...items, initialValue(props.schema.items, props.root)])}
      >
        Add {props.label}
      </button>
    </fieldset>
  );
}

/** An array of fixed choices: one checkbox per choice. */
function ChoiceList(
  props: FieldProps & {
    description: unknown;
    options: { value: unknown; label: string }[];
    items: unknown[];
  },
) {
  return (
    <fieldset>
      <legend>{props.label}</legend>
      {props.description}
      {props.options.map((option, index) => {
        const checked = props.items.some((item) => JSON.stringify(item) === JSON.stringify(option.value));
        return (
          <div class="field check" key={index}>
            <input
              id={`${props.id}-${index}`}
              type="checkbox"
              checked={checked}
              onChange={() =>
                props.onChange(
                  checked
                    ? props.items.filter((item) => JSON.stringify(item) !== JSON.stringify(option.value))
                    : [...props.items, option.value],
                )
              }
            />
            <label for={`${props.id}-${index}`}>{option.label}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

function VariantField(props: FieldProps & { schema: Schema; description: unknown }) {
  const options = variants(props.schema);
  const [picked, setPicked] = useState(() => chosenVariant(options, props.value));
  return (
    <fieldset>
      <legend>{props.label}</legend>
      {props.description}
      <div class="field">
        <label for={`${props.id}-variant`}>{props.label}: which</label>
        <select
          id={`${props.id}-variant`}
          value={String(picked)}
          onChange={(event) => {
            const index = Number(event.currentTarget.value);
            setPicked(index);
            props.onChange(initialValue(options[index], props.root));
          }}
        >
          {options.map((option, index) => (
            <option key={index} value={String(index)}>
              {variantLabel(resolve(option, props.root), index)}
            </option>
          ))}
        </select>
      </div>
      <Field
        {...props}
        schema={options[picked]}
        label={`${props.label} value`}
        id={`${props.id}-v${picked}`}
      />
    </fieldset>
  );
}

function JsonField(props: FieldProps & { description: unknown }) {
  const [text, setText] = useState(() =>
    props.value === undefined ? '' : JSON.stringify(props.value, null, 2),
  );
  const [error, setError] = useState<string | undefined>();
  return (
    <div class="field">
      <label for={props.id}>{props.label} (JSON)</label>
      <textarea
        id={props.id}
        rows={3}
        value={text}
        aria-invalid={error ? 'true' : 'false'}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          if (next.trim() === '') {
            setError(undefined);
            props.onChange(undefined);
            return;
          }
          try {
            props.onChange(JSON.parse(next));
            setError(undefined);
          } catch {
            setError('Not valid JSON yet');
          }
        }}
      />
      {error ? <small class="error">{error}</small> : null}
      {props.description}
    </div>
  );
}
