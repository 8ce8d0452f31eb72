import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import { NOT_IN_REVISION } from './codec.js';
import { codecFor, REVISION_FEATURES, revisionHas } from './codecs.js';
import { type ProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './revisions.js';

type Json = Record<string, unknown>;

const OLDER = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] };

function encodeResult(version: ProtocolVersion, method: string, result: Json): Json {
  return codecFor(version).encodeResult(method, deepFreeze(result));
}

function encodeParams(version: ProtocolVersion, method: string, params: Json | undefined) {
  return codecFor(version).encodeParams(method, deepFreeze(params));
}

describe('codecFor', () => {
  it('returns one shared, frozen codec per revision', () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const codec = codecFor(version);
      expect(codec).toBe(codecFor(version));
      expect(codec.version).toBe(version);
      expect(Object.isFrozen(codec)).toBe(true);
    }
  });

  it('accepts batches only in 2025-03-26', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS.filter((version) => codecFor(version).acceptsBatches)).toEqual([
      '2025-03-26',
    ]);
  });

  it('refuses an unknown revision', () => {
    expect(() => codecFor('1999-01-01' as ProtocolVersion)).toThrow(RangeError);
  });
});

describe('revisionHas', () => {
  it('follows the revision order', () => {
    expect(revisionHas('2024-11-05', 'audioContent')).toBe(false);
    expect(revisionHas('2025-03-26', 'audioContent')).toBe(true);
    expect(revisionHas('2025-06-18', 'tasks')).toBe(false);
    expect(revisionHas('2025-11-25', 'tasks')).toBe(true);
    for (const feature of Object.keys(REVISION_FEATURES) as (keyof typeof REVISION_FEATURES)[]) {
      expect(revisionHas('2025-11-25', feature)).toBe(true);
      expect(revisionHas('2024-11-05', feature)).toBe(false);
    }
  });
});

describe('the 2025-11-25 codec', () => {
  const codec = codecFor('2025-11-25');

  it('returns its inputs unchanged', () => {
    const result = { tools: [{ name: 'a', title: 'A', icons: [icon], inputSchema: { type: 'object' } }] };
    expect(codec.encodeResult('tools/list', result)).toBe(result);
    const params = {
      name: 'a',
      task: { ttl: 1000 },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } },
    };
    expect(codec.encodeParams('tools/call', params)).toBe(params);
    expect(codec.encodeParams('tasks/get', { taskId: 't' })).toEqual({ taskId: 't' });
    expect(codec.encodeParams('notifications/cancelled', {})).toEqual({});
    expect(codec.encodeParams('ping', undefined)).toBeUndefined();
  });
});

describe('older codecs are copy-on-write', () => {
  it('return the same object when nothing changes', () => {
    for (const version of OLDER) {
      const result = { tools: [{ name: 'plain', description: 'd', inputSchema: { type: 'object' } }] };
      expect(encodeResult(version, 'tools/list', result)).toBe(result);
      const params = { name: 'plain', arguments: { x: 1 } };
      expect(encodeParams(version, 'tools/call', params)).toBe(params);
    }
  });

  it('copy only what changes', () => {
    const plain = { name: 'plain', inputSchema: { type: 'object' } };
    const fancy = { name: 'fancy', title: 'Fancy', inputSchema: { type: 'object', properties: {} } };
    const result = { tools: [plain, fancy], nextCursor: 'c' };
    const encoded = encodeResult('2025-03-26', 'tools/list', result);
    expect(encoded).not.toBe(result);
    const tools = encoded.tools as Json[];
    expect(tools[0]).toBe(plain);
    expect(tools[1]).toEqual({ name: 'fancy', inputSchema: { type: 'object', properties: {} } });
    expect(tools[1]?.inputSchema).toBe(fancy.inputSchema);
  });

  it('never throw on and never mutate arbitrary objects', () => {
    const methods = [
      'initialize',
      'tools/list',
      'tools/call',
      'prompts/list',
      'prompts/get',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'roots/list',
      'sampling/createMessage',
      'elicitation/create',
      'completion/complete',
      'notifications/progress',
      'notifications/cancelled',
    ];
    // Objects built from the vocabulary the codecs look at, so the fuzzing reaches their branches.
    const keys = fc.constantFrom(
      'content',
      'tools',
      'prompts',
      'resources',
      'resourceTemplates',
      'contents',
      'roots',
      'messages',
      'arguments',
      'structuredContent',
      'capabilities',
      'serverInfo',
      'clientInfo',
      'sampling',
      'elicitation',
      'requestedSchema',
      'properties',
      'oneOf',
      'mode',
      'type',
      'title',
      'icons',
      '_meta',
      'annotations',
      'resource',
      'text',
      'task',
      'requestId',
      'ref',
      'context',
      'url',
      'form',
    );
    const types = fc.constantFrom(
      'text',
      'audio',
      'resource_link',
      'resource',
      'tool_use',
      'tool_result',
      'array',
      'form',
    );
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 1 }),
        types,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(keys, tie('node'), { maxKeys: 5 }),
      ),
    }));
    const anyObject = fc.dictionary(keys, node, { maxKeys: 6 }) as fc.Arbitrary<Json>;
    assertProperty(
      fc.property(
        fc.constantFrom(...OLDER),
        fc.constantFrom(...methods),
        anyObject,
        (version, method, value) => {
          const before = JSON.stringify(value);
          codecFor(version).encodeResult(method, deepFreeze(value));
          codecFor(version).encodeParams(method, value);
          expect(JSON.stringify(value)).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('older codecs on values of unknown shape', () => {
  // Found by the property above (seed -1560055670): String() throws on an object without a prototype.
  it('a content block whose "type" is an object without a prototype does not crash DowngradeCodec.plainText', () => {
    const params = { content: [[], { type: Object.create(null) }] };
    expect(() => codecFor('2025-06-18').encodeParams('sampling/createMessage', params)).not.toThrow();
    expect(() =>
      codecFor('2025-06-18').encodeResult('sampling/createMessage', deepFreeze(params)),
    ).not.toThrow();
  });

  it('tool_use, tool_result and resource_link blocks with prototype-less members are described, not thrown on', () => {
    const bare = () => Object.create(null) as Record<string, unknown>;
    const blocks = [
      { type: 'tool_use', name: bare(), id: bare(), input: {} },
      { type: 'tool_result', toolUseId: bare(), content: [{ type: bare() }] },
      { type: 'resource_link', uri: bare(), name: 'n' },
    ];
    for (const version of OLDER) {
      const messages = blocks.map((content) => ({ role: 'assistant', content }));
      expect(() => codecFor(version).encodeParams('sampling/createMessage', { messages })).not.toThrow();
      expect(() => codecFor(version).encodeResult('tools/call', { content: blocks })).not.toThrow();
    }
  });

  it('a content block whose "type" is JSON with a non-function toString does not crash the codecs', () => {
    const params = JSON.parse(
      '{"content":[{"type":{"toString":1,"valueOf":1}}],"messages":[{"role":"user","content":{"type":"tool_use","name":{"toString":1},"id":{"valueOf":1}}}]}',
    );
    for (const version of OLDER) {
      expect(() => codecFor(version).encodeParams('sampling/createMessage', params)).not.toThrow();
      expect(() => codecFor(version).encodeResult('sampling/createMessage', params)).not.toThrow();
      expect(() => codecFor(version).encodeResult('tools/call', params)).not.toThrow();
    }
  });

  it('codecFor names an unknown revision without String() on it', () => {
    expect(() => codecFor(Object.create(null))).toThrow(RangeError);
  });
});

describe('Implementation and initialize', () => {
  const serverInfo = {
    name: 's',
    title: 'Server',
    version: '1',
    description: 'd',
    websiteUrl: 'https://example.com',
    icons: [icon],
  };
  const capabilities = {
    tools: { listChanged: true },
    completions: {},
    logging: {},
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  };

  it('strips icons/websiteUrl/description before 2025-11-25 and title before 2025-06-18', () => {
    const result = { protocolVersion: 'x', capabilities, serverInfo };
    expect(encodeResult('2025-06-18', 'initialize', result).serverInfo).toEqual({
      name: 's',
      title: 'Server',
      version: '1',
    });
    expect(encodeResult('2025-03-26', 'initialize', result).serverInfo).toEqual({ name: 's', version: '1' });
  });

  it('strips server capabilities the revision lacks', () => {
    const result = { protocolVersion: 'x', capabilities, serverInfo };
    expect(encodeResult('2025-06-18', 'initialize', result).capabilities).toEqual({
      tools: { listChanged: true },
      completions: {},
      logging: {},
    });
    expect(encodeResult('2024-11-05', 'initialize', result).capabilities).toEqual({
      tools: { listChanged: true },
      logging: {},
    });
  });

  it('adapts client capabilities and clientInfo in initialize params', () => {
    const params = {
      protocolVersion: '2025-06-18',
      clientInfo: serverInfo,
      capabilities: {
        roots: { listChanged: true },
        sampling: { tools: {}, context: {} },
        elicitation: { form: {}, url: {} },
        tasks: { requests: { sampling: { createMessage: {} } } },
      },
    };
    expect(encodeParams('2025-06-18', 'initialize', params)).toEqual({
      protocolVersion: '2025-06-18',
      clientInfo: { name: 's', title: 'Server', version: '1' },
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
    });
    expect(encodeParams('2025-03-26', 'initialize', params)).toEqual({
      protocolVersion: '2025-06-18',
      clientInfo: { name: 's', version: '1' },
      capabilities: { roots: { listChanged: true }, sampling: {} },
    });
  });

  it('drops a URL-only elicitation capability for 2025-06-18', () => {
    const params = {
      protocolVersion: 'x',
      clientInfo: { name: 'c', version: '1' },
      capabilities: { elicitation: { url: {} } },
    };
    expect((encodeParams('2025-06-18', 'initialize', params) as Json).capabilities).toEqual({});
  });
});

describe('tools, prompts and resources', () => {
  const tool = {
    name: 't',
    title: 'T',
    description: 'd',
    icons: [icon],
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    annotations: { readOnlyHint: true },
    execution: { taskSupport: 'optional' },
    _meta: { 'com.example/x': 1 },
  };

  it('strips tool fields per revision', () => {
    const strip = (version: ProtocolVersion) =>
      (encodeResult(version, 'tools/list', { tools: [tool] }).tools as Json[])[0];
    expect(strip('2025-06-18')).toEqual({
      name: 't',
      title: 'T',
      description: 'd',
      inputSchema: { type: 'object' },
      outputSchema: tool.outputSchema,
      annotations: { readOnlyHint: true },
      _meta: { 'com.example/x': 1 },
    });
    expect(strip('2025-03-26')).toEqual({
      name: 't',
      description: 'd',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
    expect(strip('2024-11-05')).toEqual({ name: 't', description: 'd', inputSchema: { type: 'object' } });
  });

  it('strips prompt and argument fields', () => {
    const prompt = {
      name: 'p',
      title: 'P',
      icons: [icon],
      _meta: {},
      arguments: [{ name: 'a', title: 'A', required: true }],
    };
    expect(encodeResult('2025-06-18', 'prompts/list', { prompts: [prompt] })).toEqual({
      prompts: [{ name: 'p', title: 'P', _meta: {}, arguments: [{ name: 'a', title: 'A', required: true }] }],
    });
    expect(encodeResult('2025-03-26', 'prompts/list', { prompts: [prompt] })).toEqual({
      prompts: [{ name: 'p', arguments: [{ name: 'a', required: true }] }],
    });
  });

  it('strips resource and template fields, including annotations.lastModified', () => {
    const annotations = { audience: ['user'], priority: 1, lastModified: '2025-01-01T00:00:00Z' };
    const resource = {
      uri: 'file:///a',
      name: 'a',
      title: 'A',
      icons: [icon],
      _meta: {},
      size: 3,
      annotations,
    };
    expect(encodeResult('2025-06-18', 'resources/list', { resources: [resource] })).toEqual({
      resources: [{ uri: 'file:///a', name: 'a', title: 'A', _meta: {}, size: 3, annotations }],
    });
    expect(encodeResult('2024-11-05', 'resources/list', { resources: [resource] })).toEqual({
      resources: [{ uri: 'file:///a', name: 'a', size: 3, annotations: { audience: ['user'], priority: 1 } }],
    });
    const template = { uriTemplate: 'file:///{x}', name: 't', title: 'T', icons: [icon], annotations };
    expect(encodeResult('2025-03-26', 'resources/templates/list', { resourceTemplates: [template] })).toEqual(
      {
        resourceTemplates: [
          { uriTemplate: 'file:///{x}', name: 't', annotations: { audience: ['user'], priority: 1 } },
        ],
      },
    );
  });

  it('strips _meta from read contents before 2025-06-18', () => {
    const result = { contents: [{ uri: 'file:///a', text: 'x', _meta: { a: 1 } }] };
    expect(encodeResult('2025-06-18', 'resources/read', result)).toBe(result);
    expect(encodeResult('2025-03-26', 'resources/read', result)).toEqual({
      contents: [{ uri: 'file:///a', text: 'x' }],
    });
  });
});

describe('content blocks', () => {
  const audio = { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', annotations: { priority: 0.5 } };
  const link = {
    type: 'resource_link',
    uri: 'file:///r',
    name: 'r',
    title: 'Readme',
    description: 'the readme',
    icons: [icon],
  };
  const embedded = {
    type: 'resource',
    resource: { uri: 'file:///e', text: 'e', _meta: { a: 1 } },
    _meta: { b: 2 },
  };

  it('turns audio into a text note before 2025-03-26', () => {
    const content = (version: ProtocolVersion) =>
      (encodeResult(version, 'tools/call', { content: [audio] }).content as Json[])[0];
    expect(content('2025-03-26')).toBe(audio);
    expect(content('2024-11-05')).toEqual({
      type: 'text',
      text: '[audio content (audio/wav) omitted: protocol revision 2024-11-05 cannot carry audio]',
      annotations: { priority: 0.5 },
    });
  });

  it('turns a resource_link into text before 2025-06-18, and drops its icons in 2025-06-18', () => {
    const content = (version: ProtocolVersion) =>
      (encodeResult(version, 'tools/call', { content: [link] }).content as Json[])[0];
    expect(content('2025-06-18')).toEqual({ ...link, icons: undefined, type: 'resource_link' });
    expect(content('2025-06-18')).not.toHaveProperty('icons');
    expect(content('2025-03-26')).toEqual({
      type: 'text',
      text: 'Resource link: Readme <file:///r>\nthe readme',
    });
  });

  it('strips _meta from embedded resources before 2025-06-18', () => {
    const result = encodeResult('2025-03-26', 'prompts/get', {
      messages: [{ role: 'user', content: embedded }],
    });
    expect(result).toEqual({
      messages: [{ role: 'user', content: { type: 'resource', resource: { uri: 'file:///e', text: 'e' } } }],
    });
  });
});

describe('structured tool output', () => {
  const structured = { temperature: 21, unit: 'C' };

  it('is kept for 2025-06-18', () => {
    const result = { content: [], structuredContent: structured };
    expect(encodeResult('2025-06-18', 'tools/call', result)).toBe(result);
  });

  it('becomes a text block when no text block carries it', () => {
    const result = {
      content: [{ type: 'text', text: 'It is warm' }],
      structuredContent: structured,
      isError: false,
    };
    expect(encodeResult('2025-03-26', 'tools/call', result)).toEqual({
      content: [
        { type: 'text', text: 'It is warm' },
        { type: 'text', text: '{"temperature":21,"unit":"C"}' },
      ],
      isError: false,
    });
  });

  it('is only dropped when a text block already carries the same JSON', () => {
    const result = {
      content: [{ type: 'text', text: '{ "unit": "C", "temperature": 21 }' }],
      structuredContent: structured,
    };
    expect(encodeResult('2024-11-05', 'tools/call', result)).toEqual({ content: result.content });
  });
});

describe('requests and notifications', () => {
  it('drops the task param before 2025-11-25', () => {
    expect(encodeParams('2025-06-18', 'tools/call', { name: 'a', task: { ttl: 5 } })).toEqual({ name: 'a' });
  });

  it('strips completion context and ref title before 2025-06-18', () => {
    const params = {
      ref: { type: 'ref/prompt', name: 'p', title: 'P' },
      argument: { name: 'a', value: 'v' },
      context: { arguments: { b: 'c' } },
    };
    expect(encodeParams('2025-06-18', 'completion/complete', params)).toBe(params);
    expect(encodeParams('2025-03-26', 'completion/complete', params)).toEqual({
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'a', value: 'v' },
    });
  });

  it('strips the progress message before 2025-03-26', () => {
    const params = { progressToken: 1, progress: 2, total: 3, message: 'half' };
    expect(encodeParams('2025-03-26', 'notifications/progress', params)).toBe(params);
    expect(encodeParams('2024-11-05', 'notifications/progress', params)).toEqual({
      progressToken: 1,
      progress: 2,
      total: 3,
    });
  });

  it('refuses a cancellation without requestId before 2025-11-25', () => {
    expect(encodeParams('2025-06-18', 'notifications/cancelled', { reason: 'x' })).toBe(NOT_IN_REVISION);
    expect(encodeParams('2025-06-18', 'notifications/cancelled', { requestId: 1 })).toEqual({ requestId: 1 });
  });

  it('refuses tasks and elicitation-complete before 2025-11-25, elicitation before 2025-06-18', () => {
    for (const version of OLDER) {
      for (const method of [
        'tasks/get',
        'tasks/result',
        'tasks/list',
        'tasks/cancel',
        'notifications/tasks/status',
      ]) {
        expect(encodeParams(version, method, { taskId: 't' })).toBe(NOT_IN_REVISION);
      }
      expect(encodeParams(version, 'notifications/elicitation/complete', { elicitationId: 'e' })).toBe(
        NOT_IN_REVISION,
      );
    }
    const form = {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
    };
    expect(encodeParams('2025-06-18', 'elicitation/create', form)).toBe(form);
    expect(encodeParams('2025-03-26', 'elicitation/create', form)).toBe(NOT_IN_REVISION);
    expect(encodeParams('2024-11-05', 'elicitation/create', form)).toBe(NOT_IN_REVISION);
  });

  it('removes the related-task _meta key before 2025-11-25, keeping other keys', () => {
    const meta = { 'io.modelcontextprotocol/related-task': { taskId: 't' }, progressToken: 3 };
    expect(
      encodeParams('2025-06-18', 'notifications/progress', { progressToken: 3, progress: 1, _meta: meta }),
    ).toEqual({
      progressToken: 3,
      progress: 1,
      _meta: { progressToken: 3 },
    });
    expect(encodeResult('2025-06-18', 'tools/call', { content: [], _meta: meta })).toEqual({
      content: [],
      _meta: { progressToken: 3 },
    });
  });

  it('passes methods it does not know through untouched', () => {
    const params = { anything: { title: 'x' } };
    expect(encodeParams('2024-11-05', 'com.example/custom', params)).toBe(params);
    const result = { title: 'x' };
    expect(encodeResult('2024-11-05', 'com.example/custom', result)).toBe(result);
  });
});

describe('sampling', () => {
  const params = {
    messages: [
      { role: 'user', content: { type: 'text', text: 'Weather?' }, _meta: { a: 1 } },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'u1', name: 'weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'u1', content: [{ type: 'text', text: '21C' }] }],
      },
      { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
    ],
    maxTokens: 100,
    tools: [{ name: 'weather', inputSchema: { type: 'object' } }],
    toolChoice: { mode: 'auto' },
    task: { ttl: 10 },
  };

  it('drops tools, toolChoice and task and makes every message hold one block', () => {
    expect(encodeParams('2025-06-18', 'sampling/createMessage', params)).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather?' } },
        { role: 'assistant', content: { type: 'text', text: 'Let me check.' } },
        {
          role: 'assistant',
          content: { type: 'text', text: '[tool call weather (id u1): {"city":"Oslo"}]' },
        },
        { role: 'user', content: { type: 'text', text: '[tool result for u1]\n21C' } },
        { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
      ],
      maxTokens: 100,
    });
    const old = encodeParams('2024-11-05', 'sampling/createMessage', params) as Json;
    expect((old.messages as Json[])[4]).toEqual({
      role: 'user',
      content: {
        type: 'text',
        text: '[audio content (audio/wav) omitted: protocol revision 2024-11-05 cannot carry audio]',
      },
    });
  });

  it('gives an older server a single-block result', () => {
    const single = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }] };
    expect(encodeResult('2025-06-18', 'sampling/createMessage', single)).toEqual({
      role: 'assistant',
      model: 'm',
      content: { type: 'text', text: 'hi' },
    });
    const several = {
      role: 'assistant',
      model: 'm',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Checking' },
        { type: 'tool_use', id: 'u', name: 'w', input: {} },
      ],
    };
    expect(encodeResult('2025-06-18', 'sampling/createMessage', several)).toEqual({
      role: 'assistant',
      model: 'm',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Checking\n[tool call w (id u): {}]' },
    });
  });
});

describe('elicitation for 2025-06-18', () => {
  const form = {
    mode: 'form',
    message: 'Profile',
    task: { ttl: 10 },
    requestedSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        name: { type: 'string', default: 'Ada' },
        age: { type: 'integer', minimum: 0, default: 30 },
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
        size: { type: 'string', enum: ['s', 'm'], default: 's' },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
      },
      required: ['name'],
    },
  };

  it('rewrites the form into what 2025-06-18 defines', () => {
    expect(encodeParams('2025-06-18', 'elicitation/create', form)).toEqual({
      message: 'Profile',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'integer', minimum: 0 },
          subscribe: { type: 'boolean', default: true },
          color: { type: 'string', title: 'Color', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
          size: { type: 'string', enum: ['s', 'm'] },
          legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
        },
        required: ['name'],
      },
    });
  });

  it('refuses URL mode and multi-select, which 2025-06-18 cannot express', () => {
    const url = { mode: 'url', message: 'Sign in', elicitationId: 'e', url: 'https://example.com' };
    expect(encodeParams('2025-06-18', 'elicitation/create', url)).toBe(NOT_IN_REVISION);
    const multi = {
      message: 'Pick',
      requestedSchema: {
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string', enum: ['a'] } } },
      },
    };
    expect(encodeParams('2025-06-18', 'elicitation/create', multi)).toBe(NOT_IN_REVISION);
  });

  it('drops array answers from an elicitation result', () => {
    const result = { action: 'accept', content: { name: 'Ada', tags: ['a'] } };
    expect(encodeResult('2025-06-18', 'elicitation/create', result)).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
  });
});

describe('roots', () => {
  it('strips _meta from roots before 2025-06-18', () => {
    expect(
      encodeResult('2025-03-26', 'roots/list', { roots: [{ uri: 'file:///r', name: 'r', _meta: {} }] }),
    ).toEqual({
      roots: [{ uri: 'file:///r', name: 'r' }],
    });
  });
});
