/**
 * Most of these checks run at compile time (`tsc -p tsconfig.json`): `expectTypeOf` and
 * `@ts-expect-error` lines fail the typecheck when a type drifts. The runtime assertions cover the
 * wire constants.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Method, type MethodName, type Notification, type NotificationName } from './methods.js';
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CancelledNotificationParams,
  type ClientCapabilities,
  type ClientNotificationMethod,
  type ClientRequestMap,
  type ClientRequestMethod,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateTaskResult,
  type ElicitRequestFormParams,
  type ElicitRequestParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type EmptyResult,
  type GetTaskResult,
  type InitializeResult,
  type ListRootsResult,
  type ListToolsResult,
  LOGGING_LEVELS,
  type LoggingLevel,
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  type NotificationMethod,
  type NotificationParamsOf,
  type PrimitiveSchemaDefinition,
  type ProgressNotificationParams,
  RELATED_TASK_META_KEY,
  type RequestMeta,
  type RequestMethod,
  type RequestParamsOf,
  type RequestResultOf,
  type SamplingMessage,
  type ServerNotificationMethod,
  type ServerRequestMap,
  type ServerRequestMethod,
  TASK_STATUSES,
  type Task,
  type TaskStatus,
  type TaskStatusNotificationParams,
  type Tool,
} from './types.js';

const task: Task = {
  taskId: 't-1',
  status: 'working',
  statusMessage: 'Fetching forecast',
  createdAt: '2025-11-25T10:00:00Z',
  lastUpdatedAt: '2025-11-25T10:00:05Z',
  ttl: null,
  pollInterval: 1_000,
};

const weatherTool: Tool = {
  name: 'get_weather',
  title: 'Get weather',
  description: 'Current weather for a city',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  annotations: { readOnlyHint: true, openWorldHint: true },
  execution: { taskSupport: 'optional' },
  icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }],
};

describe('wire constants', () => {
  it('lists the logging levels from least to most severe, as RFC 5424 ranks them', () => {
    expect(LOGGING_LEVELS.join(' < ')).toBe(
      'debug < info < notice < warning < error < critical < alert < emergency',
    );
    expect(LOGGING_LEVELS.indexOf('warning')).toBeLessThan(LOGGING_LEVELS.indexOf('error'));
    expectTypeOf<LoggingLevel>().toEqualTypeOf<
      'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'
    >();
  });

  it('lists every task status exactly once', () => {
    expect([...TASK_STATUSES].sort()).toEqual([
      'cancelled',
      'completed',
      'failed',
      'input_required',
      'working',
    ]);
    expectTypeOf<TaskStatus>().toEqualTypeOf<
      'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'
    >();
  });

  it('spells the reserved _meta keys as the specification does', () => {
    expect(RELATED_TASK_META_KEY).toBe('io.modelcontextprotocol/related-task');
    expect(MODEL_IMMEDIATE_RESPONSE_META_KEY).toBe('io.modelcontextprotocol/model-immediate-response');
    const meta: RequestMeta = { progressToken: 1, [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
    expect(meta[RELATED_TASK_META_KEY]?.taskId).toBe('t-1');
    const created: CreateTaskResult = { task, _meta: { [MODEL_IMMEDIATE_RESPONSE_META_KEY]: 'On it' } };
    expect(created._meta?.[MODEL_IMMEDIATE_RESPONSE_META_KEY]).toBe('On it');
    // @ts-expect-error the related-task value must be an object with a taskId
    const wrong: RequestMeta = { [RELATED_TASK_META_KEY]: 't-1' };
    expect(wrong).toBeDefined();
  });
});

describe('representative 2025-11-25 values', () => {
  it('types a full tool call result with structured content', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: '{"celsius":21}', annotations: { audience: ['assistant'], priority: 0.5 } },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'weather://paris/today', name: 'today', icons: [{ src: 'data:,' }] },
        {
          type: 'resource',
          resource: { uri: 'weather://paris/raw', mimeType: 'application/json', text: '{}' },
          _meta: { 'com.example/source': 'cache' },
        },
      ],
      structuredContent: { celsius: 21 },
      isError: false,
      _meta: { [RELATED_TASK_META_KEY]: { taskId: 't-1' } },
    };
    expectTypeOf(result.content[0]!).toHaveProperty('type');
    // @ts-expect-error content is a list of blocks, never a bare string
    const bare: CallToolResult = { content: 'hi' };
    // @ts-expect-error structuredContent is an object, not an array
    const listed: CallToolResult = { content: [], structuredContent: [1, 2] };
    expect([result, bare, listed]).toHaveLength(3);
  });

  it('types form and URL elicitations and tells them apart by mode', () => {
    const form: ElicitRequestFormParams = {
      mode: 'form',
      message: 'Shipping details',
      requestedSchema: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', default: 'me@example.com' },
          quantity: { type: 'integer', minimum: 1, default: 1 },
          gift: { type: 'boolean', default: false },
          size: { type: 'string', enum: ['S', 'M', 'L'] },
          color: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }] },
          extras: { type: 'array', items: { type: 'string', enum: ['wrap', 'card'] }, maxItems: 2 },
          days: { type: 'array', items: { anyOf: [{ const: 'mon', title: 'Monday' }] } },
          legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
        },
        required: ['email'],
      },
    };
    const url: ElicitRequestURLParams = {
      mode: 'url',
      message: 'Sign in to your calendar',
      elicitationId: 'e-7',
      url: 'https://example.com/oauth/start?e=e-7',
    };
    const either: ElicitRequestParams[] = [
      form,
      url,
      { message: 'No mode means form', requestedSchema: form.requestedSchema },
    ];
    const answered: ElicitResult = {
      action: 'accept',
      content: { email: 'me@example.com', extras: ['wrap'] },
    };

    const urls = either.filter((params): params is ElicitRequestURLParams => params.mode === 'url');
    expect(urls.map((params) => params.elicitationId)).toEqual(['e-7']);
    expect(answered.action).toBe('accept');

    // @ts-expect-error URL mode needs an elicitationId
    const noId: ElicitRequestURLParams = { mode: 'url', message: 'x', url: 'https://example.com' };
    // @ts-expect-error form fields are flat primitives: no nested objects
    const nested: PrimitiveSchemaDefinition = { type: 'object', properties: {} };
    expect([noId, nested]).toHaveLength(2);
  });

  it('types a sampling request with tools and a tool-use answer', () => {
    const params: CreateMessageRequestParams = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'call_1',
              content: [{ type: 'text', text: '21°C' }],
              structuredContent: { celsius: 21 },
            },
          ],
        },
      ],
      modelPreferences: { hints: [{ name: 'sonnet' }], speedPriority: 0.7 },
      includeContext: 'none',
      maxTokens: 400,
      tools: [weatherTool],
      toolChoice: { mode: 'auto' },
      task: { ttl: 60_000 },
    };
    const result: CreateMessageResult = {
      role: 'assistant',
      content: { type: 'text', text: 'It is 21°C in Paris.' },
      model: 'claude-sonnet-4',
      stopReason: 'endTurn',
    };
    const providerReason: CreateMessageResult = { ...result, stopReason: 'content_filter' };
    expect(params.tools?.[0]?.name).toBe('get_weather');
    expect(providerReason.stopReason).toBe('content_filter');
    const link = { type: 'resource_link', uri: 'a:b', name: 'b' } as const;
    // @ts-expect-error a prompt message may link resources, a sampling message may not
    const linked: SamplingMessage = { role: 'user', content: link };
    expect(linked).toBeDefined();
  });

  it('types a task and the notifications about it', () => {
    const status: TaskStatusNotificationParams = { ...task, status: 'completed' };
    const polled: GetTaskResult = { ...task, _meta: {} };
    expect(status.status).toBe('completed');
    expect(polled.ttl).toBeNull();
    // @ts-expect-error ttl is a number or null, never absent
    const noTtl: Task = { taskId: 'x', status: 'working', createdAt: '', lastUpdatedAt: '' };
    // @ts-expect-error not a task status
    const unknownStatus: TaskStatus = 'paused';
    expect([noTtl, unknownStatus]).toHaveLength(2);
  });

  it('keeps capabilities open to extensions and cancellation ids optional', () => {
    const caps: ClientCapabilities = {
      sampling: { context: {}, tools: {} },
      elicitation: { form: {}, url: {} },
      tasks: {
        list: {},
        cancel: {},
        requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
      },
      'com.example/extension': { enabled: true },
    };
    const cancelled: CancelledNotificationParams = { reason: 'stop' };
    expect(Object.keys(caps)).toContain('com.example/extension');
    expect(cancelled.requestId).toBeUndefined();
  });
});

describe('method maps', () => {
  it('cover exactly the methods named in methods.ts', () => {
    expectTypeOf<RequestMethod>().toEqualTypeOf<MethodName>();
    expectTypeOf<NotificationMethod>().toEqualTypeOf<NotificationName>();
    expectTypeOf<ClientRequestMethod>().toExtend<MethodName>();
    expectTypeOf<ServerRequestMethod>().toExtend<MethodName>();
    expectTypeOf<ClientNotificationMethod | ServerNotificationMethod>().toEqualTypeOf<NotificationName>();
    expectTypeOf<typeof Method.ToolsCall>().toExtend<ClientRequestMethod>();
    expectTypeOf<typeof Method.ElicitationCreate>().toExtend<ServerRequestMethod>();
    expectTypeOf<typeof Method.ElicitationCreate>().not.toExtend<ClientRequestMethod>();
    expectTypeOf<typeof Notification.Message>().toExtend<ServerNotificationMethod>();
    expectTypeOf<typeof Notification.Message>().not.toExtend<ClientNotificationMethod>();
    expect(Method.ToolsCall).toBe('tools/call');
  });

  it('resolve params and results per method', () => {
    expectTypeOf<RequestResultOf<'tools/list'>>().toEqualTypeOf<ListToolsResult>();
    expectTypeOf<RequestResultOf<'tools/list'>['tools']>().toEqualTypeOf<Tool[]>();
    expectTypeOf<RequestParamsOf<'tools/call'>>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<RequestResultOf<'tools/call'>>().toEqualTypeOf<CallToolResult | CreateTaskResult>();
    expectTypeOf<RequestResultOf<'sampling/createMessage'>>().toEqualTypeOf<
      CreateMessageResult | CreateTaskResult
    >();
    expectTypeOf<RequestResultOf<'elicitation/create'>>().toEqualTypeOf<ElicitResult | CreateTaskResult>();
    expectTypeOf<RequestResultOf<'roots/list'>>().toEqualTypeOf<ListRootsResult>();
    expectTypeOf<RequestResultOf<'initialize'>>().toEqualTypeOf<InitializeResult>();
    expectTypeOf<RequestResultOf<'ping'>>().toEqualTypeOf<EmptyResult>();
    expectTypeOf<
      NotificationParamsOf<'notifications/progress'>
    >().toEqualTypeOf<ProgressNotificationParams>();
  });

  it('mark exactly the requests whose params may be omitted', () => {
    type Optional<M extends RequestMethod> = undefined extends RequestParamsOf<M> ? true : false;
    expectTypeOf<Optional<'ping'>>().toEqualTypeOf<true>();
    expectTypeOf<Optional<'tools/list'>>().toEqualTypeOf<true>();
    expectTypeOf<Optional<'roots/list'>>().toEqualTypeOf<true>();
    expectTypeOf<Optional<'tools/call'>>().toEqualTypeOf<false>();
    expectTypeOf<Optional<'tasks/get'>>().toEqualTypeOf<false>();
    expectTypeOf<
      undefined extends NotificationParamsOf<'notifications/initialized'> ? true : false
    >().toEqualTypeOf<true>();
    expectTypeOf<
      undefined extends NotificationParamsOf<'notifications/message'> ? true : false
    >().toEqualTypeOf<false>();
  });

  it('agree on methods both sides send', () => {
    type Shared = ClientRequestMethod & ServerRequestMethod;
    expectTypeOf<Shared>().toEqualTypeOf<
      'ping' | 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel'
    >();
    expectTypeOf<ClientRequestMap[Shared]>().toEqualTypeOf<ServerRequestMap[Shared]>();
  });

  it('give params the wire shape the connection sends', () => {
    expectTypeOf<CallToolRequestParams>().toExtend<Record<string, unknown>>();
    expectTypeOf<ElicitRequestParams>().toExtend<Record<string, unknown>>();
    expectTypeOf<CreateMessageRequestParams>().toExtend<Record<string, unknown>>();
    expectTypeOf<NonNullable<RequestParamsOf<RequestMethod>>>().toExtend<Record<string, unknown>>();
    expectTypeOf<RequestResultOf<RequestMethod>>().toExtend<Record<string, unknown>>();
  });
});
