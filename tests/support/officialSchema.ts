/**
 * Validation of mcpkit's wire messages against the official MCP JSON Schemas.
 *
 * The schemas are read from `../shared/spec/<revision>/schema.json` beside the checkout (CI clones
 * `shared/` there); they are never copied into this repository. 2025-11-25 is JSON Schema 2020-12
 * (Ajv2020); the older three are draft-07 (Ajv).
 *
 * Two levels of checking:
 * - the official schema as published (`closed: false`). Its object types do not forbid unknown
 *   members, so a field a revision lacks (a `title` sent to a 2024-11-05 peer) passes;
 * - `closed: true` additionally rejects members the revision's schema does not define, on every
 *   object type that does not declare an index signature. Tool input/output schemas stay open (they
 *   are JSON Schemas), request/notification `params` always accept `_meta`, and `allOf`
 *   intersections are merged first. This is what proves an older peer receives nothing it cannot
 *   understand.
 *
 * @example
 * ```ts
 * const check = validateAgainstRevision('2025-06-18', message, { direction: 'server-to-client', requestMethod: 'tools/list' });
 * expect(check.errors).toEqual([]);
 * ```
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  JsonRpcMessage,
  MessageExtra,
  MessageSink,
  ProtocolVersion,
  RequestId,
  SendOptions,
  Transport,
} from '@mcpkit/core';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

const addFormats = formatsModule.default;

/**
 * The revisions with an official schema, newest first.
 *
 * @example
 * ```ts
 * for (const revision of OFFICIAL_REVISIONS) validateDefinition(revision, 'Tool', tool);
 * ```
 */
export const OFFICIAL_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/**
 * The mcpkit checkout this file lives in.
 *
 * @example
 * ```ts
 * path.join(repoRoot, 'package.json');
 * ```
 */
export const repoRoot: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Where the official schemas are expected: `../shared/spec` beside the checkout.
 *
 * @example
 * ```ts
 * console.warn(`${officialSchemaRoot} not found`);
 * ```
 */
export const officialSchemaRoot: string = process.env.MCPKIT_SPEC_DIR
  ? path.resolve(process.env.MCPKIT_SPEC_DIR)
  : path.resolve(repoRoot, '../shared/spec');

/**
 * The path of one revision's official schema.
 *
 * @example
 * ```ts
 * officialSchemaPath('2025-11-25'); // '/work/shared/spec/2025-11-25/schema.json'
 * ```
 */
export function officialSchemaPath(revision: ProtocolVersion): string {
  return path.resolve(officialSchemaRoot, revision, 'schema.json');
}

/**
 * True when the schema of every supported revision is present.
 *
 * @example
 * ```ts
 * if (!officialSchemaAvailable()) console.warn('official-schema tests NOT RUN');
 * ```
 */
export function officialSchemaAvailable(): boolean {
  return OFFICIAL_REVISIONS.every((revision) => existsSync(officialSchemaPath(revision)));
}

/**
 * True when the official schemas are absent and may be: outside CI (`CI` unset) and without
 * `MCPKIT_REQUIRE_SCHEMAS`. Then schema checks are skipped (the global setup prints one line saying
 * so); on CI a missing schema is a failure, never a skip.
 *
 * @example
 * ```ts
 * it.skipIf(officialSchemaSkipped)('covers every method of the schema', () => {});
 * ```
 */
export const officialSchemaSkipped: boolean = !officialSchemaAvailable() && !officialSchemaRequired();

/**
 * True when a missing official schema must fail the run (`CI` or `MCPKIT_REQUIRE_SCHEMAS` set).
 *
 * @example
 * ```ts
 * if (officialSchemaRequired() && !officialSchemaAvailable()) throw new Error('schemas missing');
 * ```
 */
export function officialSchemaRequired(): boolean {
  return Boolean(process.env.CI || process.env.MCPKIT_REQUIRE_SCHEMAS);
}

/**
 * Which way a message travels.
 *
 * @example
 * ```ts
 * const direction: MessageDirection = 'server-to-client';
 * ```
 */
export type MessageDirection = 'client-to-server' | 'server-to-client';

/**
 * What the validator must know about a message beyond the message itself.
 *
 * @example
 * ```ts
 * const context: SchemaContext = { direction: 'server-to-client', requestMethod: 'tools/call', taskAugmented: true };
 * ```
 */
export interface SchemaContext {
  readonly direction: MessageDirection;
  /** For a result or error response: the method of the request it answers. */
  readonly requestMethod?: string;
  /** For a result: the request carried `params.task`, so the answer is a `CreateTaskResult`. */
  readonly taskAugmented?: boolean;
}

/**
 * Options of {@link validateAgainstRevision}.
 *
 * @example
 * ```ts
 * validateAgainstRevision('2024-11-05', message, context, { closed: true });
 * ```
 */
export interface SchemaCheckOptions {
  /** Also reject members the revision's schema does not define (see the module doc). */
  readonly closed?: boolean;
}

/**
 * The outcome of one validation.
 *
 * @example
 * ```ts
 * const { valid, errors, definition }: SchemaCheck = validateDefinition('2025-11-25', 'Icon', icon);
 * ```
 */
export interface SchemaCheck {
  readonly valid: boolean;
  readonly errors: string[];
  /** The definition(s) the message was checked against, e.g. `CallToolResult`. */
  readonly definition: string;
}

type Json = Record<string, unknown>;

interface RevisionSchema {
  readonly ajv: Ajv;
  readonly key: string;
  readonly defsPointer: string;
  readonly defs: Readonly<Record<string, Json>>;
  readonly validators: Map<string, ValidateFunction>;
  readonly typeOwners: WeakMap<object, object>;
}

const MAX_ERRORS = 12;
const loaded = new Map<string, RevisionSchema>();

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readSchema(revision: ProtocolVersion): Json {
  const file = officialSchemaPath(revision);
  if (!existsSync(file)) {
    throw new Error(`official schema ${file} not found: clone the shared folder beside the checkout`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

function revisionSchema(revision: ProtocolVersion, closed: boolean): RevisionSchema {
  const cacheKey = `${revision}:${closed}`;
  const cached = loaded.get(cacheKey);
  if (cached) return cached;
  const raw = readSchema(revision);
  // 2025-11-25 and later (2026-07-28 included) are JSON Schema 2020-12 with `$defs`.
  const defsKey = revision >= '2025-11-25' ? '$defs' : 'definitions';
  const schema = closed ? closeSchema(raw, defsKey) : raw;
  const options = { strict: false, allowUnionTypes: true, allErrors: true, verbose: true };
  const ajv = revision >= '2025-11-25' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  const key = `mcp-${revision}`;
  ajv.addSchema(schema, key);
  const defs = schema[defsKey] as Record<string, Json>;
  const entry: RevisionSchema = {
    ajv,
    key,
    defsPointer: `#/${defsKey}/`,
    defs,
    validators: new Map(),
    typeOwners: typeOwnersOf(defs),
  };
  loaded.set(cacheKey, entry);
  return entry;
}

function validatorFor(schema: RevisionSchema, definition: string): ValidateFunction {
  let validate = schema.validators.get(definition);
  if (!validate) {
    if (!schema.defs[definition]) throw new Error(`The schema has no definition "${definition}"`);
    validate = schema.ajv.getSchema(`${schema.key}${schema.defsPointer}${definition}`);
    if (!validate) throw new Error(`Ajv could not compile "${definition}"`);
    schema.validators.set(definition, validate);
  }
  return validate;
}

type AjvError = NonNullable<ValidateFunction['errors']>[number];

/**
 * Drops the errors of union branches whose `type` constant did not even match (a text block is not
 * an image block), so a report names what is wrong with the branch that was meant. Needs Ajv's
 * `verbose` errors: a branch is recognised by the identity of its schema object.
 */
function withoutMismatchedBranches(
  errors: readonly AjvError[],
  typeOwners: WeakMap<object, object>,
): AjvError[] {
  const mismatched: Array<{ owner: object; path: string; error: AjvError }> = [];
  for (const error of errors) {
    if (error.keyword !== 'const' || !error.instancePath.endsWith('/type') || !isObject(error.parentSchema))
      continue;
    const owner = typeOwners.get(error.parentSchema);
    if (owner) mismatched.push({ owner, path: error.instancePath.slice(0, -'/type'.length), error });
  }
  if (mismatched.length === 0) return [...errors];
  return errors.filter(
    (error) =>
      !mismatched.some(
        (branch) =>
          branch.error === error ||
          (branch.owner === error.parentSchema && branch.path === error.instancePath),
      ),
  );
}

/** Maps each `properties.type` schema object to the object schema that owns it. */
function typeOwnersOf(defs: Readonly<Record<string, Json>>): WeakMap<object, object> {
  const owners = new WeakMap<object, object>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    const properties = node.properties;
    if (isObject(properties) && isObject(properties.type)) owners.set(properties.type, node);
    for (const value of Object.values(node)) visit(value);
  };
  visit(defs);
  return owners;
}

function describeErrors(
  validate: ValidateFunction,
  label: string,
  typeOwners: WeakMap<object, object>,
): string[] {
  const seen = new Set<string>();
  for (const error of withoutMismatchedBranches(validate.errors ?? [], typeOwners)) {
    const where = error.instancePath || '/';
    const extra =
      error.keyword === 'additionalProperties'
        ? ` "${String((error.params as { additionalProperty?: unknown }).additionalProperty)}"`
        : '';
    seen.add(`${label}${where}: ${error.message ?? error.keyword}${extra}`);
    if (seen.size >= MAX_ERRORS) break;
  }
  return [...seen];
}

/**
 * Validates any value against one definition of a revision's schema, e.g. `CreateTaskResult` or
 * `Tool`.
 *
 * @example
 * ```ts
 * validateDefinition('2025-11-25', 'Icon', { src: 'https://example.com/a.png' }).valid; // true
 * ```
 */
export function validateDefinition(
  revision: ProtocolVersion,
  definition: string,
  value: unknown,
  options: SchemaCheckOptions = {},
): SchemaCheck {
  const schema = revisionSchema(revision, options.closed ?? false);
  const validate = validatorFor(schema, definition);
  const valid = validate(value) as boolean;
  return { valid, errors: valid ? [] : describeErrors(validate, definition, schema.typeOwners), definition };
}

// ---------------------------------------------------------------------------------------------
// Method tables, read from the schema's own unions.

/** A message union of the schema, by sender and kind. */
export type MessageUnion = 'ClientRequest' | 'ServerRequest' | 'ClientNotification' | 'ServerNotification';

const methodTables = new Map<string, ReadonlyMap<string, string>>();

/**
 * The methods of one of a revision's message unions, each with the definition that describes it.
 *
 * @example
 * ```ts
 * methodsOf('2025-11-25', 'ServerRequest').get('elicitation/create'); // 'ElicitRequest'
 * ```
 */
export function methodsOf(revision: ProtocolVersion, union: MessageUnion): ReadonlyMap<string, string> {
  const cacheKey = `${revision}:${union}`;
  const cached = methodTables.get(cacheKey);
  if (cached) return cached;
  const { defs } = revisionSchema(revision, false);
  const table = new Map<string, string>();
  for (const member of (defs[union]?.anyOf as Json[] | undefined) ?? []) {
    const name = String(member.$ref).split('/').pop() ?? '';
    const method = (defs[name]?.properties as Json | undefined)?.method as Json | undefined;
    if (typeof method?.const === 'string') table.set(method.const, name);
  }
  methodTables.set(cacheKey, table);
  return table;
}

/** The result definition of each request method (the schema does not link them). */
const RESULT_DEFINITIONS: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'logging/setLevel': 'EmptyResult',
  'sampling/createMessage': 'CreateMessageResult',
  'elicitation/create': 'ElicitResult',
  'roots/list': 'ListRootsResult',
  'tasks/get': 'GetTaskResult',
  'tasks/result': 'GetTaskPayloadResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
};

const TASK_AUGMENTABLE = new Set(['tools/call', 'sampling/createMessage', 'elicitation/create']);

function senderOf(direction: MessageDirection): 'Client' | 'Server' {
  return direction === 'client-to-server' ? 'Client' : 'Server';
}

function combine(definition: string, checks: SchemaCheck[]): SchemaCheck {
  return {
    valid: checks.every((check) => check.valid),
    errors: checks.flatMap((check) => check.errors),
    definition,
  };
}

function failure(definition: string, error: string): SchemaCheck {
  return { valid: false, errors: [error], definition };
}

/**
 * Validates one JSON-RPC message against the official schema of `revision`, picking the
 * definition from the method (requests and notifications), from the method of the answered request
 * (results), or the error-response envelope.
 *
 * @example
 * ```ts
 * validateAgainstRevision(
 *   '2025-11-25',
 *   { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text' }] } },
 *   { direction: 'server-to-client', requestMethod: 'tools/call' },
 * ).valid; // false: the text block has no "text"
 * ```
 */
export function validateAgainstRevision(
  revision: ProtocolVersion,
  message: JsonRpcMessage,
  context: SchemaContext,
  options: SchemaCheckOptions = {},
): SchemaCheck {
  const value = message as unknown;
  if (!isObject(value)) return failure('JSONRPCMessage', 'A message must be a JSON object');
  if (typeof value.method === 'string') return validateCall(revision, value, context, options);
  if ('result' in value) return validateResult(revision, value, context, options);
  if ('error' in value) return validateError(revision, value, options);
  return failure('JSONRPCMessage', 'Neither a request, a notification nor a response');
}

function validateCall(
  revision: ProtocolVersion,
  message: Json,
  context: SchemaContext,
  options: SchemaCheckOptions,
) {
  const isRequest = 'id' in message;
  const union: MessageUnion = `${senderOf(context.direction)}${isRequest ? 'Request' : 'Notification'}`;
  const method = message.method as string;
  const definition = methodsOf(revision, union).get(method);
  if (!definition) return failure(union, `"${method}" is not a ${union} in revision ${revision}`);
  if (revision >= '2025-11-25') return validateDefinition(revision, definition, message, options);
  // Before 2025-11-25 the typed definitions are only {method, params}; the envelope is separate.
  const envelope = isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification';
  const body: Json = message.params === undefined ? { method } : { method, params: message.params };
  return combine(definition, [
    validateDefinition(revision, envelope, message, options),
    validateDefinition(revision, definition, body, options),
  ]);
}

function validateResult(
  revision: ProtocolVersion,
  message: Json,
  context: SchemaContext,
  options: SchemaCheckOptions,
) {
  const envelope = revision === '2025-11-25' ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
  const method = context.requestMethod;
  if (method === undefined) return failure(envelope, 'The method of the answered request is unknown');
  // A result travels opposite to its request: a server-to-client result answers a ClientRequest.
  const requester = context.direction === 'server-to-client' ? 'ClientRequest' : 'ServerRequest';
  if (!methodsOf(revision, requester).has(method)) {
    return failure(envelope, `"${method}" is not a ${requester} in revision ${revision}`);
  }
  const augmented =
    context.taskAugmented === true && revision === '2025-11-25' && TASK_AUGMENTABLE.has(method);
  const definition = augmented ? 'CreateTaskResult' : (RESULT_DEFINITIONS[method] ?? 'Result');
  return combine(definition, [
    validateDefinition(revision, envelope, message, options),
    validateDefinition(revision, definition, message.result, options),
  ]);
}

function validateError(revision: ProtocolVersion, message: Json, options: SchemaCheckOptions) {
  if (revision !== '2025-11-25') return validateDefinition(revision, 'JSONRPCError', message, options);
  const code = isObject(message.error) ? message.error.code : undefined;
  if (code === -32042) {
    return combine('URLElicitationRequiredError', [
      validateDefinition(revision, 'JSONRPCErrorResponse', message, options),
      validateDefinition(revision, 'URLElicitationRequiredError', message, options),
    ]);
  }
  return validateDefinition(revision, 'JSONRPCErrorResponse', message, options);
}

// ---------------------------------------------------------------------------------------------
// The closed-world variant of a schema.

/** Object schemas that are JSON Schemas themselves: any keyword is legitimate there. */
const OPEN_MEMBERS = new Set(['inputSchema', 'outputSchema']);

function closeSchema(raw: Json, defsKey: string): Json {
  const schema = structuredClone(raw);
  const defs = schema[defsKey] as Record<string, Json>;
  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    return defs[ref.split('/').pop() ?? ''] ?? node;
  };
  for (const name of Object.keys(defs)) defs[name] = closeNode(defs[name] as Json, resolve, false);
  return schema;
}

function closeNode(node: Json, resolve: (node: Json) => Json, open: boolean): Json {
  let current = node;
  if (Array.isArray(current.allOf)) current = mergeAllOf(current, resolve);
  const properties = current.properties;
  if (isObject(properties)) {
    for (const key of Object.keys(properties)) {
      const child = properties[key];
      if (!isObject(child)) continue;
      let closed = closeNode(child, resolve, OPEN_MEMBERS.has(key));
      if (key === 'params') closed = withMetaMember(closed);
      properties[key] = closed;
    }
    if (!open && current.additionalProperties === undefined) current.additionalProperties = false;
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = current[keyword];
    if (Array.isArray(branches))
      current[keyword] = branches.map((b) => (isObject(b) ? closeNode(b, resolve, false) : b));
  }
  if (isObject(current.items)) current.items = closeNode(current.items, resolve, false);
  if (isObject(current.additionalProperties) && !open) {
    current.additionalProperties = closeNode(current.additionalProperties, resolve, false);
  }
  return current;
}

/** `params` may always carry `_meta` (the base Request/Notification types say so). */
function withMetaMember(node: Json): Json {
  const properties = node.properties;
  if (!isObject(properties) || '_meta' in properties) return node;
  properties._meta = { type: 'object' };
  return node;
}

/** An intersection of object types as one object type, so closing it does not reject its parts. */
function mergeAllOf(node: Json, resolve: (node: Json) => Json): Json {
  const properties: Json = {};
  const required: string[] = [];
  let open = false;
  const rest: Json = { ...node };
  delete rest.allOf;
  for (const part of node.allOf as Json[]) {
    const member = structuredClone(resolve(part));
    if (isObject(member.properties)) Object.assign(properties, member.properties);
    if (Array.isArray(member.required)) required.push(...(member.required as string[]));
    if (member.additionalProperties !== undefined && member.additionalProperties !== false) open = true;
  }
  const merged: Json = { ...rest, type: 'object', properties, required: [...new Set(required)] };
  if (open) merged.additionalProperties = {};
  return merged;
}

// ---------------------------------------------------------------------------------------------
// SchemaRecorder

/**
 * One message that failed validation.
 *
 * @example
 * ```ts
 * for (const failure of recorder.failures) console.error(failure.definition, failure.errors);
 * ```
 */
export interface SchemaFailure {
  readonly revision: ProtocolVersion;
  readonly direction: MessageDirection;
  readonly definition: string;
  readonly errors: string[];
  readonly message: unknown;
}

/**
 * Options of {@link SchemaRecorder}.
 *
 * @example
 * ```ts
 * new SchemaRecorder({ side: 'server', revision: '2025-06-18', closed: true, checkIncoming: false });
 * ```
 */
export interface SchemaRecorderOptions {
  /** Which end the wrapped transports belong to: it decides the direction of each message. */
  readonly side: 'client' | 'server';
  /**
   * The revision to validate against. By default the recorder follows the session: the version
   * proposed in `initialize` until the result names the negotiated one (or `setProtocolVersion`).
   */
  readonly revision?: ProtocolVersion;
  /** Reject members the revision does not define (default true; see the module doc). */
  readonly closed?: boolean;
  /** Validate what the wrapped transport receives as well as what it sends (default true). */
  readonly checkIncoming?: boolean;
}

interface PendingRequest {
  readonly method: string;
  readonly taskAugmented: boolean;
}

/**
 * `2026-07-28` when a request's `_meta` names it (typed as a revision this module reads: its
 * schema sits beside the others), else `undefined`.
 */
function modernRevisionOf(message: Json): ProtocolVersion | undefined {
  const meta = isObject(message.params) ? message.params._meta : undefined;
  const version = isObject(meta) ? meta['io.modelcontextprotocol/protocolVersion'] : undefined;
  return version === '2026-07-28' ? (version as unknown as ProtocolVersion) : undefined;
}

function isSupportedRevision(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (OFFICIAL_REVISIONS as readonly string[]).includes(value);
}

/**
 * Wraps transports so that every message sent or received through them is validated against the
 * official schema of the negotiated revision, tracking request ids to know each result's type.
 *
 * @example
 * ```ts
 * const recorder = new SchemaRecorder({ side: 'server' });
 * const [clientSide, serverSide] = createInMemoryPair();
 * server.connect(recorder.wrap(serverSide));
 * // ... exercise the session ...
 * recorder.assertClean();
 * ```
 */
export class SchemaRecorder {
  /** Every message that failed validation, in order. */
  readonly failures: SchemaFailure[] = [];
  private checkedCount = 0;
  private revision: ProtocolVersion;
  private readonly pinned: boolean;
  private readonly pending = new Map<string, PendingRequest>();

  constructor(private readonly options: SchemaRecorderOptions) {
    this.revision = options.revision ?? '2025-11-25';
    this.pinned = options.revision !== undefined;
  }

  /** How many messages were validated. */
  get checked(): number {
    return this.checkedCount;
  }

  /** The revision messages are currently validated against. */
  get currentRevision(): ProtocolVersion {
    return this.revision;
  }

  /** A transport that behaves like `transport` and validates everything passing through it. */
  wrap(transport: Transport): Transport {
    const outgoing: MessageDirection =
      this.options.side === 'server' ? 'server-to-client' : 'client-to-server';
    const incoming: MessageDirection =
      outgoing === 'server-to-client' ? 'client-to-server' : 'server-to-client';
    const checkIncoming = this.options.checkIncoming ?? true;
    const wrapped: Transport = {
      start: (sink: MessageSink) =>
        transport.start({
          message: (value: unknown, extra?: MessageExtra) => {
            if (checkIncoming) this.record(value, incoming);
            sink.message(value, extra);
          },
          parseError: (error) => sink.parseError(error),
          error: (error) => sink.error(error),
          closed: (error) => sink.closed(error),
        }),
      send: (message: JsonRpcMessage | JsonRpcMessage[], sendOptions?: SendOptions) => {
        this.record(message, outgoing);
        return transport.send(message, sendOptions);
      },
      close: () => transport.close(),
      setProtocolVersion: (version: string) => {
        if (!this.pinned && isSupportedRevision(version)) this.revision = version;
        transport.setProtocolVersion?.(version);
      },
      get sessionId() {
        return transport.sessionId;
      },
    };
    return wrapped;
  }

  /**
   * Asserts that more than `minimum` messages were validated, so a recorder that saw no traffic
   * cannot pass for a clean one. When the official schemas are skipped (see
   * {@link officialSchemaSkipped}) nothing is validated and nothing is asserted.
   */
  assertChecked(minimum: number): void {
    if (officialSchemaSkipped) return;
    if (this.checkedCount <= minimum) {
      throw new Error(`only ${this.checkedCount} message(s) were validated; expected more than ${minimum}`);
    }
  }

  /** Throws an error listing every failure, if there is any. */
  assertClean(): void {
    if (this.failures.length === 0) return;
    const lines = this.failures.map(
      (f) =>
        `[${f.revision} ${f.direction} ${f.definition}] ${f.errors.join('; ')}\n  ${JSON.stringify(f.message)}`,
    );
    throw new Error(
      `${this.failures.length} message(s) do not match the official schema:\n${lines.join('\n')}`,
    );
  }

  private record(value: unknown, direction: MessageDirection): void {
    if (officialSchemaSkipped) return;
    if (Array.isArray(value)) {
      if (this.revision !== '2025-03-26') {
        this.fail(
          direction,
          'JSONRPCMessage',
          [`A batch is not a message in revision ${this.revision}`],
          value,
        );
      }
      for (const item of value) this.record(item, direction);
      return;
    }
    this.checkedCount++;
    if (!isObject(value)) {
      this.fail(direction, 'JSONRPCMessage', ['A message must be a JSON object'], value);
      return;
    }
    this.followNegotiation(value, direction);
    const context = this.contextOf(value, direction);
    // A request carrying the 2026-07-28 envelope (a client's era probe) is of that revision,
    // whatever the session negotiates afterwards.
    const revision = modernRevisionOf(value) ?? this.revision;
    const check = validateAgainstRevision(revision, value as unknown as JsonRpcMessage, context, {
      closed: this.options.closed ?? true,
    });
    if (!check.valid) this.fail(direction, check.definition, check.errors, value, revision);
  }

  private fail(
    direction: MessageDirection,
    definition: string,
    errors: string[],
    message: unknown,
    revision: ProtocolVersion = this.revision,
  ): void {
    this.failures.push({ revision, direction, definition, errors, message });
  }

  private contextOf(message: Json, direction: MessageDirection): SchemaContext {
    const id = message.id as RequestId | undefined;
    if (typeof message.method === 'string') {
      if (id !== undefined) {
        const params = message.params;
        const taskAugmented = isObject(params) && params.task !== undefined;
        this.pending.set(`${direction}:${String(id)}`, { method: message.method, taskAugmented });
      }
      return { direction };
    }
    // A response travels opposite to its request.
    const requestDirection: MessageDirection =
      direction === 'server-to-client' ? 'client-to-server' : 'server-to-client';
    const key = `${requestDirection}:${String(id)}`;
    const request = this.pending.get(key);
    this.pending.delete(key);
    if (!request) return { direction };
    return { direction, requestMethod: request.method, taskAugmented: request.taskAugmented };
  }

  /** Follows `initialize`: validate against the proposed revision, then the negotiated one. */
  private followNegotiation(message: Json, direction: MessageDirection): void {
    if (this.pinned) return;
    if (message.method === 'initialize' && direction === 'client-to-server') {
      const proposed = isObject(message.params) ? message.params.protocolVersion : undefined;
      this.revision = isSupportedRevision(proposed) ? proposed : '2025-11-25';
      return;
    }
    if (direction === 'server-to-client' && isObject(message.result)) {
      const request = this.pending.get(`client-to-server:${String(message.id)}`);
      const negotiated = message.result.protocolVersion;
      if (request?.method === 'initialize' && isSupportedRevision(negotiated)) this.revision = negotiated;
    }
  }
}
