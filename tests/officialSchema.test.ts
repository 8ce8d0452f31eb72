/**
 * Every message shape mcpkit builds, checked against the official JSON Schemas of all four
 * revisions: the 2025-11-25 originals as they are, and what each older revision's codec makes of
 * them, in closed mode (no member the older schema does not define).
 */
import {
  createInMemoryPair,
  type JsonRpcMessage,
  type MessageSink,
  type ProtocolVersion,
} from '@mcpkit/core';
import { codecFor, NOT_IN_REVISION } from '@mcpkit/core/internal';
import { describe, expect, it } from 'vitest';
import {
  type MessageDirection,
  methodsOf,
  officialSchemaAvailable,
  SchemaRecorder,
  validateAgainstRevision,
  validateDefinition,
} from './support/officialSchema.js';

type Json = Record<string, unknown>;

// A missing schema folder is reported once by tests/support/globalSetup.ts, and fails the run on CI.
const available = officialSchemaAvailable();

// ---------------------------------------------------------------------------------------------
// Hand-built 2025-11-25 messages: one per request, result and notification of the method table.

const C2S: MessageDirection = 'client-to-server';
const S2C: MessageDirection = 'server-to-client';
const OLDER = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;

interface Fixture {
  readonly name: string;
  readonly direction: MessageDirection;
  readonly message: Json;
  /** For results: the method of the answered request. */
  readonly requestMethod?: string;
  readonly taskAugmented?: boolean;
  /** Older revisions that have the method but cannot express this message (the codec refuses it). */
  readonly notRepresentableIn?: readonly ProtocolVersion[];
}

const icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' };
const lastModified = '2025-11-25T10:00:00Z';
const annotations = { audience: ['user', 'assistant'], priority: 0.7, lastModified };
const implementation = (name: string) => ({
  name,
  title: `${name} title`,
  version: '1.0.0',
  description: `The ${name}`,
  websiteUrl: 'https://example.com',
  icons: [icon],
});
const task = (status: string) => ({
  taskId: 'task-1',
  status,
  statusMessage: 'step 2 of 3',
  createdAt: '2025-11-25T10:00:00Z',
  lastUpdatedAt: '2025-11-25T10:00:05Z',
  ttl: 60000,
  pollInterval: 1000,
});
const relatedTask = { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } };

const tool = {
  name: 'get_weather',
  title: 'Weather',
  description: 'Current weather',
  icons: [icon],
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { temperature: { type: 'number' } },
    required: ['temperature'],
  },
  annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
  execution: { taskSupport: 'optional' },
  _meta: { 'com.example/version': 2 },
};

const textBlock = { type: 'text', text: 'Sunny', annotations, _meta: { 'com.example/k': 1 } };
const imageBlock = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', annotations };
const audioBlock = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', annotations: { priority: 0.2 } };
const linkBlock = {
  type: 'resource_link',
  uri: 'file:///project/README.md',
  name: 'README.md',
  title: 'Project readme',
  description: 'How to build',
  mimeType: 'text/markdown',
  size: 120,
  icons: [icon],
  annotations,
  _meta: {},
};
const embeddedBlock = {
  type: 'resource',
  resource: {
    uri: 'file:///project/a.txt',
    mimeType: 'text/plain',
    text: 'hello',
    _meta: { 'com.example/x': 1 },
  },
  annotations,
  _meta: {},
};

const request = (id: number, method: string, params?: Json): Json =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
const notification = (method: string, params?: Json): Json =>
  params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
const result = (id: number, body: Json): Json => ({ jsonrpc: '2.0', id, result: body });
/** A request fixture in `direction`, named after its method unless `more.name` says otherwise. */
const requestFixture =
  (direction: MessageDirection) =>
  (id: number, method: string, params?: Json, more: Partial<Fixture> = {}): Fixture => ({
    name: method,
    direction,
    message: request(id, method, params),
    ...more,
  });
const clientRequest = requestFixture(C2S);
const serverRequest = requestFixture(S2C);

const clientRequests: Fixture[] = [
  clientRequest(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {
      experimental: { 'com.example/feature': {} },
      roots: { listChanged: true },
      sampling: { context: {}, tools: {} },
      elicitation: { form: {}, url: {} },
      tasks: {
        list: {},
        cancel: {},
        requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
      },
    },
    clientInfo: implementation('client'),
  }),
  clientRequest(2, 'ping'),
  clientRequest(3, 'resources/list', { cursor: 'page-2' }),
  clientRequest(4, 'resources/templates/list', {}),
  clientRequest(5, 'resources/read', { uri: 'file:///project/a.txt' }),
  clientRequest(6, 'resources/subscribe', { uri: 'file:///a' }),
  clientRequest(7, 'resources/unsubscribe', { uri: 'file:///a' }),
  clientRequest(8, 'prompts/list'),
  clientRequest(9, 'prompts/get', { name: 'review', arguments: { language: 'ts' } }),
  clientRequest(10, 'tools/list', { _meta: { progressToken: 'p0' } }),
  clientRequest(
    11,
    'tools/call',
    {
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      task: { ttl: 60000 },
      _meta: { progressToken: 'p1' },
    },
    { name: 'tools/call (task-augmented, with progress)' },
  ),
  clientRequest(12, 'tasks/get', { taskId: 'task-1' }),
  clientRequest(13, 'tasks/result', { taskId: 'task-1' }),
  clientRequest(14, 'tasks/list', { cursor: 'c' }),
  clientRequest(15, 'tasks/cancel', { taskId: 'task-1' }),
  clientRequest(16, 'logging/setLevel', { level: 'warning' }),
  clientRequest(17, 'completion/complete', {
    ref: { type: 'ref/prompt', name: 'review', title: 'Code review' },
    argument: { name: 'language', value: 'ty' },
    context: { arguments: { framework: 'node' } },
  }),
  clientRequest(
    18,
    'completion/complete',
    {
      ref: { type: 'ref/resource', uri: 'file:///{path}' },
      argument: { name: 'path', value: 'src' },
    },
    { name: 'completion/complete (resource template)' },
  ),
];

const samplingParams = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'Weather in Oslo?' }, _meta: { 'com.example/turn': 1 } },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool_use',
          id: 'call-1',
          name: 'get_weather',
          input: { city: 'Oslo' },
          _meta: { cache: 'x' },
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'call-1',
          content: [{ type: 'text', text: '{"temperature":21}' }],
          structuredContent: { temperature: 21 },
          isError: false,
        },
      ],
    },
    { role: 'user', content: audioBlock },
    { role: 'user', content: imageBlock },
  ],
  modelPreferences: {
    hints: [{ name: 'claude' }],
    intelligencePriority: 0.8,
    speedPriority: 0.2,
    costPriority: 0.1,
  },
  systemPrompt: 'Be brief.',
  includeContext: 'thisServer',
  temperature: 0.2,
  maxTokens: 200,
  stopSequences: ['END'],
  metadata: { trace: 'abc' },
  tools: [tool],
  toolChoice: { mode: 'auto' },
  task: { ttl: 30000 },
  _meta: relatedTask,
};

const formElicitation = {
  mode: 'form',
  message: 'Your profile',
  requestedSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1, maxLength: 50, default: 'Ada' },
      email: { type: 'string', format: 'email' },
      age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
      ratio: { type: 'number', minimum: 0.5, default: 1.5 },
      subscribe: { type: 'boolean', default: true },
      color: {
        type: 'string',
        title: 'Color',
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green' },
        ],
        default: 'r',
      },
      size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
      legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Option A', 'Option B'] },
    },
    required: ['name'],
  },
};

const serverRequests: Fixture[] = [
  serverRequest(101, 'ping', { _meta: { progressToken: 9 } }, { name: 'ping (server)' }),
  serverRequest(102, 'sampling/createMessage', samplingParams),
  serverRequest(103, 'roots/list'),
  serverRequest(104, 'elicitation/create', formElicitation, { name: 'elicitation/create (form)' }),
  serverRequest(
    105,
    'elicitation/create',
    {
      mode: 'url',
      message: 'Sign in to continue',
      elicitationId: 'el-1',
      url: 'https://example.com/auth?state=x',
    },
    { name: 'elicitation/create (url)', notRepresentableIn: ['2025-06-18'] },
  ),
  serverRequest(
    106,
    'elicitation/create',
    {
      message: 'Tags',
      requestedSchema: {
        type: 'object',
        properties: {
          tags: { type: 'array', minItems: 1, items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
          labels: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
        },
      },
    },
    { name: 'elicitation/create (multi-select)', notRepresentableIn: ['2025-06-18'] },
  ),
  serverRequest(107, 'tasks/get', { taskId: 'task-1' }, { name: 'tasks/get (server)' }),
  serverRequest(108, 'tasks/result', { taskId: 'task-1' }, { name: 'tasks/result (server)' }),
  serverRequest(109, 'tasks/list', undefined, { name: 'tasks/list (server)' }),
  serverRequest(110, 'tasks/cancel', { taskId: 'task-1' }, { name: 'tasks/cancel (server)' }),
];

const notifications: Fixture[] = [
  { name: 'initialized', direction: C2S, message: notification('notifications/initialized') },
  {
    name: 'cancelled (client)',
    direction: C2S,
    message: notification('notifications/cancelled', { requestId: 101, reason: 'User closed the dialog' }),
  },
  {
    name: 'cancelled without requestId',
    direction: C2S,
    message: notification('notifications/cancelled', { reason: 'no id' }),
    notRepresentableIn: OLDER,
  },
  {
    name: 'progress (client)',
    direction: C2S,
    message: notification('notifications/progress', {
      progressToken: 9,
      progress: 0.5,
      total: 1,
      message: 'Half',
    }),
  },
  { name: 'roots/list_changed', direction: C2S, message: notification('notifications/roots/list_changed') },
  {
    name: 'tasks/status (client)',
    direction: C2S,
    message: notification('notifications/tasks/status', task('working')),
  },
  {
    name: 'cancelled (server)',
    direction: S2C,
    message: notification('notifications/cancelled', { requestId: 'abc' }),
  },
  {
    name: 'progress (server, task-related)',
    direction: S2C,
    message: notification('notifications/progress', {
      progressToken: 'p1',
      progress: 2,
      message: 'Fetching',
      _meta: relatedTask,
    }),
  },
  {
    name: 'message',
    direction: S2C,
    message: notification('notifications/message', {
      level: 'error',
      logger: 'db',
      data: { error: 'Connection failed' },
    }),
  },
  {
    name: 'resources/updated',
    direction: S2C,
    message: notification('notifications/resources/updated', { uri: 'file:///project/a.txt' }),
  },
  {
    name: 'resources/list_changed',
    direction: S2C,
    message: notification('notifications/resources/list_changed'),
  },
  {
    name: 'tools/list_changed',
    direction: S2C,
    message: notification('notifications/tools/list_changed', { _meta: {} }),
  },
  {
    name: 'prompts/list_changed',
    direction: S2C,
    message: notification('notifications/prompts/list_changed'),
  },
  {
    name: 'elicitation/complete',
    direction: S2C,
    message: notification('notifications/elicitation/complete', { elicitationId: 'el-1' }),
  },
  {
    name: 'tasks/status (server)',
    direction: S2C,
    message: notification('notifications/tasks/status', task('completed')),
  },
];

const serverResults: Fixture[] = [
  {
    name: 'InitializeResult',
    direction: S2C,
    requestMethod: 'initialize',
    message: result(1, {
      protocolVersion: '2025-11-25',
      capabilities: {
        experimental: {},
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      serverInfo: implementation('server'),
      instructions: 'Use get_weather for weather questions.',
    }),
  },
  { name: 'EmptyResult (ping)', direction: S2C, requestMethod: 'ping', message: result(2, {}) },
  {
    name: 'ListResourcesResult',
    direction: S2C,
    requestMethod: 'resources/list',
    message: result(3, {
      resources: [
        {
          uri: 'file:///project/a.txt',
          name: 'a.txt',
          title: 'A',
          description: 'A file',
          mimeType: 'text/plain',
          size: 5,
          icons: [icon],
          annotations,
          _meta: { 'com.example/owner': 'me' },
        },
      ],
      nextCursor: 'page-3',
    }),
  },
  {
    name: 'ListResourceTemplatesResult',
    direction: S2C,
    requestMethod: 'resources/templates/list',
    message: result(4, {
      resourceTemplates: [
        {
          uriTemplate: 'file:///project/{path}',
          name: 'project-file',
          title: 'Project file',
          mimeType: 'text/plain',
          icons: [icon],
          annotations,
          _meta: {},
        },
      ],
    }),
  },
  {
    name: 'ReadResourceResult',
    direction: S2C,
    requestMethod: 'resources/read',
    message: result(5, {
      contents: [
        {
          uri: 'file:///project/a.txt',
          mimeType: 'text/plain',
          text: 'hello',
          _meta: { 'com.example/etag': 'x' },
        },
        { uri: 'file:///project/b.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
      ],
    }),
  },
  {
    name: 'EmptyResult (subscribe)',
    direction: S2C,
    requestMethod: 'resources/subscribe',
    message: result(6, {}),
  },
  {
    name: 'EmptyResult (unsubscribe)',
    direction: S2C,
    requestMethod: 'resources/unsubscribe',
    message: result(7, {}),
  },
  {
    name: 'ListPromptsResult',
    direction: S2C,
    requestMethod: 'prompts/list',
    message: result(8, {
      prompts: [
        {
          name: 'review',
          title: 'Code review',
          description: 'Review code',
          icons: [icon],
          arguments: [{ name: 'language', title: 'Language', description: 'The language', required: true }],
          _meta: {},
        },
      ],
    }),
  },
  {
    name: 'GetPromptResult',
    direction: S2C,
    requestMethod: 'prompts/get',
    message: result(9, {
      description: 'Review',
      messages: [
        { role: 'user', content: textBlock },
        { role: 'assistant', content: imageBlock },
        { role: 'user', content: audioBlock },
        { role: 'user', content: linkBlock },
        { role: 'user', content: embeddedBlock },
      ],
    }),
  },
  {
    name: 'ListToolsResult',
    direction: S2C,
    requestMethod: 'tools/list',
    message: result(10, {
      tools: [tool, { name: 'plain', inputSchema: { type: 'object' } }],
      nextCursor: 'n',
    }),
  },
  {
    name: 'CallToolResult',
    direction: S2C,
    requestMethod: 'tools/call',
    message: result(11, {
      content: [textBlock, imageBlock, audioBlock, linkBlock, embeddedBlock],
      structuredContent: { temperature: 21, conditions: ['sunny'] },
      isError: false,
      _meta: relatedTask,
    }),
  },
  {
    name: 'CreateTaskResult (tools/call)',
    direction: S2C,
    requestMethod: 'tools/call',
    taskAugmented: true,
    message: result(11, {
      task: task('working'),
      _meta: { 'io.modelcontextprotocol/model-immediate-response': 'Working on it' },
    }),
  },
  { name: 'GetTaskResult', direction: S2C, requestMethod: 'tasks/get', message: result(12, task('working')) },
  {
    name: 'GetTaskPayloadResult',
    direction: S2C,
    requestMethod: 'tasks/result',
    message: result(13, { content: [{ type: 'text', text: 'Sunny' }], _meta: relatedTask }),
  },
  {
    name: 'ListTasksResult',
    direction: S2C,
    requestMethod: 'tasks/list',
    message: result(14, { tasks: [task('completed'), { ...task('failed'), ttl: null }], nextCursor: 'c2' }),
  },
  {
    name: 'CancelTaskResult',
    direction: S2C,
    requestMethod: 'tasks/cancel',
    message: result(15, task('cancelled')),
  },
  {
    name: 'EmptyResult (setLevel)',
    direction: S2C,
    requestMethod: 'logging/setLevel',
    message: result(16, {}),
  },
  {
    name: 'CompleteResult',
    direction: S2C,
    requestMethod: 'completion/complete',
    message: result(17, { completion: { values: ['typescript'], total: 1, hasMore: false } }),
  },
];

const clientResults: Fixture[] = [
  { name: 'EmptyResult (ping, client)', direction: C2S, requestMethod: 'ping', message: result(101, {}) },
  {
    name: 'CreateMessageResult',
    direction: C2S,
    requestMethod: 'sampling/createMessage',
    message: result(102, {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look that up.' },
        { type: 'tool_use', id: 'call-2', name: 'get_weather', input: { city: 'Bergen' } },
      ],
      model: 'claude-x',
      stopReason: 'toolUse',
      _meta: relatedTask,
    }),
  },
  {
    name: 'CreateMessageResult (single block)',
    direction: C2S,
    requestMethod: 'sampling/createMessage',
    message: result(102, {
      role: 'assistant',
      content: { type: 'text', text: 'Hi' },
      model: 'm',
      stopReason: 'endTurn',
    }),
  },
  {
    name: 'CreateTaskResult (sampling)',
    direction: C2S,
    requestMethod: 'sampling/createMessage',
    taskAugmented: true,
    message: result(102, { task: task('working') }),
  },
  {
    name: 'ListRootsResult',
    direction: C2S,
    requestMethod: 'roots/list',
    message: result(103, {
      roots: [{ uri: 'file:///home/me/project', name: 'project', _meta: { 'com.example/x': 1 } }],
    }),
  },
  {
    name: 'ElicitResult',
    direction: C2S,
    requestMethod: 'elicitation/create',
    message: result(104, {
      action: 'accept',
      content: { name: 'Ada', age: 36, subscribe: false, tags: ['a', 'b'] },
    }),
  },
  {
    name: 'ElicitResult (decline)',
    direction: C2S,
    requestMethod: 'elicitation/create',
    message: result(105, { action: 'decline' }),
  },
  {
    name: 'GetTaskResult (client)',
    direction: C2S,
    requestMethod: 'tasks/get',
    message: result(107, task('input_required')),
  },
  {
    name: 'GetTaskPayloadResult (client)',
    direction: C2S,
    requestMethod: 'tasks/result',
    message: result(108, {
      role: 'assistant',
      content: { type: 'text', text: 'ok' },
      model: 'm',
      _meta: relatedTask,
    }),
  },
  {
    name: 'ListTasksResult (client)',
    direction: C2S,
    requestMethod: 'tasks/list',
    message: result(109, { tasks: [] }),
  },
  {
    name: 'CancelTaskResult (client)',
    direction: C2S,
    requestMethod: 'tasks/cancel',
    message: result(110, task('cancelled')),
  },
];

const errorResponses: Fixture[] = [
  {
    name: 'error response',
    direction: S2C,
    requestMethod: 'tools/call',
    message: {
      jsonrpc: '2.0',
      id: 11,
      error: { code: -32602, message: 'Unknown tool: nope', data: { tool: 'nope' } },
    },
  },
  {
    name: 'URLElicitationRequiredError',
    direction: S2C,
    requestMethod: 'tools/call',
    message: {
      jsonrpc: '2.0',
      id: 11,
      error: {
        code: -32042,
        message: 'Authorization required',
        data: {
          elicitations: [
            { mode: 'url', message: 'Sign in', elicitationId: 'el-2', url: 'https://example.com/auth' },
          ],
        },
      },
    },
  },
];

/** An error whose request id could not be read: 2025-11-25 omits `id`. */
const idlessError: Json = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };

const calls = [...clientRequests, ...serverRequests, ...notifications];
const results = [...serverResults, ...clientResults];
const everything = [...calls, ...results, ...errorResponses];

function contextOf(fixture: Fixture) {
  return {
    direction: fixture.direction,
    requestMethod: fixture.requestMethod,
    taskAugmented: fixture.taskAugmented,
  };
}

function validate(revision: ProtocolVersion, fixture: Fixture, message: Json, closed: boolean) {
  return validateAgainstRevision(revision, message as unknown as JsonRpcMessage, contextOf(fixture), {
    closed,
  });
}

/** What the codec of `revision` makes of a request or notification (NOT_IN_REVISION or a message). */
function downgradeCall(revision: ProtocolVersion, message: Json): Json | typeof NOT_IN_REVISION {
  const params = codecFor(revision).encodeParams(
    message.method as string,
    message.params as Json | undefined,
  );
  if (params === NOT_IN_REVISION) return params;
  const { params: _original, ...envelope } = message;
  return params === undefined ? envelope : { ...envelope, params };
}

function downgradeResult(revision: ProtocolVersion, fixture: Fixture): Json {
  const body = codecFor(revision).encodeResult(fixture.requestMethod!, fixture.message.result as Json);
  return { ...fixture.message, result: body };
}

describe.runIf(available)('official schemas', () => {
  describe('the fixtures cover the 2025-11-25 method table', () => {
    const unions = [
      ['ClientRequest', C2S, clientRequests],
      ['ServerRequest', S2C, serverRequests],
      ['ClientNotification', C2S, notifications],
      ['ServerNotification', S2C, notifications],
    ] as const;
    it.each(unions)('every %s method has a fixture', (union, direction, fixtures) => {
      const covered = new Set(fixtures.filter((f) => f.direction === direction).map((f) => f.message.method));
      expect([...methodsOf('2025-11-25', union).keys()].filter((method) => !covered.has(method))).toEqual([]);
    });

    it('every request method has a result fixture', () => {
      for (const [union, answers] of [
        ['ClientRequest', serverResults],
        ['ServerRequest', clientResults],
      ] as const) {
        const answered = new Set(answers.map((f) => f.requestMethod));
        expect([...methodsOf('2025-11-25', union).keys()].filter((method) => !answered.has(method))).toEqual(
          [],
        );
      }
    });
  });

  describe('2025-11-25 messages are valid 2025-11-25 messages', () => {
    it.each(everything.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
      const official = validate('2025-11-25', fixture, fixture.message, false);
      expect(official.errors).toEqual([]);
      expect(official.valid).toBe(true);
      // Closed: the fixtures carry no member the schema does not define.
      expect(validate('2025-11-25', fixture, fixture.message, true).errors).toEqual([]);
    });

    it('an error response without id is valid in 2025-11-25', () => {
      expect(validateAgainstRevision('2025-11-25', idlessError as never, { direction: S2C }).valid).toBe(
        true,
      );
    });
  });

  describe.each(OLDER)('downgraded by the %s codec', (revision) => {
    it.each(calls.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
      const union =
        `${fixture.direction === C2S ? 'Client' : 'Server'}${'id' in fixture.message ? 'Request' : 'Notification'}` as const;
      const inRevision = methodsOf(revision, union).has(fixture.message.method as string);
      const downgraded = downgradeCall(revision, fixture.message);
      if (!inRevision || fixture.notRepresentableIn?.includes(revision)) {
        expect(downgraded).toBe(NOT_IN_REVISION);
        return;
      }
      expect(downgraded).not.toBe(NOT_IN_REVISION);
      const check = validate(revision, fixture, downgraded as Json, true);
      expect(check.errors).toEqual([]);
      expect(check.valid).toBe(true);
    });

    it.each(results.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
      const requester = fixture.direction === S2C ? 'ClientRequest' : 'ServerRequest';
      const method = fixture.requestMethod!;
      if (!methodsOf(revision, requester).has(method)) {
        // The request itself can never reach this revision, so neither can its result.
        expect(
          codecFor(revision).encodeParams(method, { taskId: 't', message: 'm', requestedSchema: {} }),
        ).toBe(NOT_IN_REVISION);
        return;
      }
      if (fixture.taskAugmented) {
        // The codec drops `task` from the request, so the older peer answers with a plain result.
        expect(codecFor(revision).encodeParams(method, { task: { ttl: 1 } })).not.toHaveProperty('task');
        return;
      }
      const check = validate(revision, fixture, downgradeResult(revision, fixture), true);
      expect(check.errors).toEqual([]);
      expect(check.valid).toBe(true);
    });

    it.each(errorResponses.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
      expect(validate(revision, fixture, fixture.message, true).errors).toEqual([]);
    });

    it('needs the id of an error response: the older schemas have no id-less error', () => {
      // Finding: before 2025-11-25 `JSONRPCError.id` is required (and never null), so a parse
      // error cannot be answered validly at all; 2025-11-25 made `id` optional.
      expect(validateAgainstRevision(revision, idlessError as never, { direction: S2C }).valid).toBe(false);
    });
  });

  describe('the codecs do real work', () => {
    it('undowngraded 2025-11-25 messages break the closed 2024-11-05 schema', () => {
      const broken = [...calls, ...results]
        .filter((f) => !f.taskAugmented)
        .filter((fixture) => {
          const method = (fixture.requestMethod ?? fixture.message.method) as string;
          const union = fixture.requestMethod
            ? fixture.direction === S2C
              ? 'ClientRequest'
              : 'ServerRequest'
            : `${fixture.direction === C2S ? 'Client' : 'Server'}${'id' in fixture.message ? 'Request' : 'Notification'}`;
          return methodsOf('2024-11-05', union as never).has(method);
        })
        .filter((fixture) => !validate('2024-11-05', fixture, fixture.message, true).valid)
        .map((fixture) => fixture.name);
      expect(broken).toEqual(
        expect.arrayContaining([
          'initialize',
          'tools/call (task-augmented, with progress)',
          'completion/complete',
          'sampling/createMessage',
          'InitializeResult',
          'ListResourcesResult',
          'ListPromptsResult',
          'GetPromptResult',
          'ListToolsResult',
          'CallToolResult',
          'CreateMessageResult',
          'ListRootsResult',
        ]),
      );
    });

    it('the published (open) schema alone would not notice a leaked field', () => {
      const tools = {
        jsonrpc: '2.0',
        id: 1,
        result: { tools: [{ name: 'a', title: 'A', inputSchema: { type: 'object' } }] },
      };
      const context = { direction: S2C, requestMethod: 'tools/list' } as const;
      expect(validateAgainstRevision('2024-11-05', tools as never, context).valid).toBe(true);
      const closed = validateAgainstRevision('2024-11-05', tools as never, context, { closed: true });
      expect(closed.valid).toBe(false);
      expect(closed.errors).toEqual(['ListToolsResult/tools/0: must NOT have additional properties "title"']);
    });
  });

  describe('negative controls: the harness rejects invalid messages', () => {
    const revisions = ['2025-11-25', ...OLDER] as const;

    it.each(revisions)('a text block without text (%s)', (revision) => {
      const check = validateAgainstRevision(
        revision,
        { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text' }] } },
        { direction: S2C, requestMethod: 'tools/call' },
      );
      expect(check.valid).toBe(false);
      expect(check.definition).toBe('CallToolResult');
      expect(check.errors.join('\n')).toContain("must have required property 'text'");
    });

    it.each(revisions)('an error response with id null (%s)', (revision) => {
      const check = validateAgainstRevision(
        revision,
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } as never,
        { direction: S2C },
      );
      expect(check.valid).toBe(false);
    });

    it.each(revisions)('a request with id null or a wrong jsonrpc (%s)', (revision) => {
      const ping = (message: Json) => validateAgainstRevision(revision, message as never, { direction: C2S });
      expect(ping({ jsonrpc: '2.0', id: null, method: 'ping' }).valid).toBe(false);
      expect(ping({ jsonrpc: '1.0', id: 1, method: 'ping' }).valid).toBe(false);
      expect(ping({ jsonrpc: '2.0', id: 1.5, method: 'ping' }).valid).toBe(false);
      expect(ping({ jsonrpc: '2.0', id: 1, method: 'ping' }).valid).toBe(true);
    });

    it('a request sent in the wrong direction or unknown to the revision', () => {
      const sampling = request(1, 'sampling/createMessage', { messages: [], maxTokens: 1 });
      expect(validateAgainstRevision('2025-11-25', sampling as never, { direction: C2S }).errors).toEqual([
        '"sampling/createMessage" is not a ClientRequest in revision 2025-11-25',
      ]);
      expect(validateAgainstRevision('2025-11-25', sampling as never, { direction: S2C }).valid).toBe(true);
      const elicit = request(2, 'elicitation/create', formElicitation);
      expect(validateAgainstRevision('2025-03-26', elicit as never, { direction: S2C }).valid).toBe(false);
    });

    it('malformed params and results', () => {
      const progress = notification('notifications/progress', { progress: 1 });
      expect(validateAgainstRevision('2025-06-18', progress as never, { direction: S2C }).valid).toBe(false);
      const size = result(1, { resources: [{ uri: 'file:///a', name: 'a', size: 1.5 }] });
      expect(
        validateAgainstRevision('2025-11-25', size as never, {
          direction: S2C,
          requestMethod: 'resources/list',
        }).valid,
      ).toBe(false);
      const noTask = result(1, { _meta: {} });
      const check = validateAgainstRevision('2025-11-25', noTask as never, {
        direction: S2C,
        requestMethod: 'tools/call',
        taskAugmented: true,
      });
      expect(check.definition).toBe('CreateTaskResult');
      expect(check.valid).toBe(false);
      expect(validateDefinition('2025-11-25', 'Task', { ...task('sleeping') }).valid).toBe(false);
    });

    it('a result without the method of its request', () => {
      expect(validateAgainstRevision('2025-11-25', result(1, {}) as never, { direction: S2C }).valid).toBe(
        false,
      );
    });
  });

  describe('SchemaRecorder', () => {
    function linkedPair(recorder: SchemaRecorder) {
      const [clientSide, serverSide] = createInMemoryPair();
      const server = recorder.wrap(serverSide);
      const received: unknown[] = [];
      const sink = (into: unknown[]): MessageSink => ({
        message: (value) => into.push(value),
        parseError: () => {},
        error: () => {},
        closed: () => {},
      });
      clientSide.start(sink([]));
      server.start(sink(received));
      return { client: clientSide, server, received };
    }

    const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

    it('follows negotiation and checks results by the method of their request', async () => {
      const recorder = new SchemaRecorder({ side: 'server' });
      const { client, server, received } = linkedPair(recorder);
      const clientInfo = { name: 'c', version: '1' };
      client.send(
        request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo }) as never,
      );
      await flush();
      expect(received).toHaveLength(1);
      expect(recorder.currentRevision).toBe('2025-06-18');
      server.send(
        result(1, {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 's', version: '1' },
        }) as never,
      );
      client.send(request(2, 'tools/list') as never);
      client.send(request(4, 'tools/list') as never);
      await flush();
      const listed = { tools: [{ name: 't', icons: [icon], inputSchema: { type: 'object' } }] };
      server.send(result(2, listed) as never);
      server.send(result(4, codecFor('2025-06-18').encodeResult('tools/list', listed)) as never);
      // A second answer to the same request is flagged: nothing is waiting for it.
      server.send(result(4, { tools: [] }) as never);
      client.send(request(3, 'tools/call', { name: 't' }) as never);
      await flush();
      server.send(result(3, { content: [{ type: 'text' }] }) as never);
      await flush();

      expect(recorder.checked).toBe(9);
      expect(recorder.failures.map((f) => [f.revision, f.direction, f.definition])).toEqual([
        ['2025-06-18', S2C, 'ListToolsResult'],
        ['2025-06-18', S2C, 'JSONRPCResponse'],
        ['2025-06-18', S2C, 'CallToolResult'],
      ]);
      expect(recorder.failures[1]?.errors).toEqual(['The method of the answered request is unknown']);
      expect(recorder.failures[0]?.errors).toEqual([
        'ListToolsResult/tools/0: must NOT have additional properties "icons"',
      ]);
      expect(() => recorder.assertClean()).toThrow(/3 message\(s\) do not match the official schema/);
    });

    it('checks incoming messages and flags batches outside 2025-03-26', async () => {
      const recorder = new SchemaRecorder({ side: 'server', revision: '2025-06-18' });
      const { client } = linkedPair(recorder);
      client.send([request(1, 'ping'), request(2, 'ping')] as never);
      client.send({ jsonrpc: '2.0', id: 3, method: 'ping', params: 'oops' } as never);
      await flush();
      expect(recorder.failures.map((f) => [f.direction, f.definition])).toEqual([
        [C2S, 'JSONRPCMessage'],
        [C2S, 'PingRequest'],
      ]);
    });

    it('is clean for a clean exchange, and accepts batches in 2025-03-26', async () => {
      const recorder = new SchemaRecorder({ side: 'client', revision: '2025-03-26' });
      const [clientSide, serverSide] = createInMemoryPair();
      const client = recorder.wrap(clientSide);
      client.start({ message: () => {}, parseError: () => {}, error: () => {}, closed: () => {} });
      serverSide.start({ message: () => {}, parseError: () => {}, error: () => {}, closed: () => {} });
      client.send([request(1, 'ping'), request(2, 'tools/list')] as never);
      serverSide.send([result(1, {}), result(2, { tools: [] })] as never);
      await flush();
      expect(recorder.checked).toBe(4);
      recorder.assertClean();
    });
  });
});
