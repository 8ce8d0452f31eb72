/**
 * The 2026-07-28 codec and method table against the official schemas and examples in
 * ../shared/spec/: decoding lifts exactly the envelope, encoding produces results the 2026 schema
 * accepts, and the method table agrees with every revision's schema, method by method.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ALL_REVISIONS,
  ENVELOPE,
  EXTENSION_METHOD_TABLE,
  McpError,
  METHOD_TABLE,
  methodExists,
  type Revision,
  TASKS_EXTENSION,
} from '@mcpkit/core';
import { decodeModernRequest, encodeModernError, encodeModernResult } from '@mcpkit/core/internal';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { officialSchemaRoot, officialSchemaSkipped } from './support/officialSchema.js';

type Json = Record<string, any>;

const MODERN_DIR = path.join(officialSchemaRoot, '2026-07-28');
const EXAMPLES = path.join(MODERN_DIR, 'examples');

function schemaOf(revision: Revision): Json {
  return JSON.parse(readFileSync(path.join(officialSchemaRoot, revision, 'schema.json'), 'utf8'));
}

/** The examples of one type; none when the schemas are absent and may be (the suites are skipped). */
function examplesOf(type: string): Json[] {
  if (officialSchemaSkipped) return [];
  const dir = path.join(EXAMPLES, type);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
}

let ajv: Ajv2020 | undefined;
function validate(definition: string, value: unknown): string[] {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(schemaOf('2026-07-28'), 'mcp2026');
  }
  const check = ajv.getSchema(`mcp2026#/$defs/${definition}`)!;
  return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** Request examples of the client → server methods, with the method each one names. */
const REQUEST_TYPES = [
  'CallToolRequest',
  'DiscoverRequest',
  'GetPromptRequest',
  'ListPromptsRequest',
  'ListResourcesRequest',
  'ListResourceTemplatesRequest',
  'ListToolsRequest',
  'ReadResourceRequest',
  'SubscriptionsListenRequest',
  'CompleteRequest',
];

/** Result examples and the method they answer. */
const RESULT_TYPES: Record<string, string> = {
  CallToolResult: 'tools/call',
  DiscoverResult: 'server/discover',
  GetPromptResult: 'prompts/get',
  ListPromptsResult: 'prompts/list',
  ListResourcesResult: 'resources/list',
  ListResourceTemplatesResult: 'resources/templates/list',
  ListToolsResult: 'tools/list',
  ReadResourceResult: 'resources/read',
  CompleteResult: 'completion/complete',
};

describe.skipIf(officialSchemaSkipped)('the 2026-07-28 codec against the official examples', () => {
  const requests = REQUEST_TYPES.flatMap((type) =>
    examplesOf(type).map((example) => [type, example] as const),
  );

  it.each(requests)('%s: decoding lifts the envelope and nothing else', (_type, example) => {
    const decoded = decodeModernRequest(example.params);
    const meta = example.params._meta;
    expect(decoded.scope.revision).toBe(meta[ENVELOPE.protocolVersion]);
    expect(decoded.scope.clientCapabilities).toEqual(meta[ENVELOPE.clientCapabilities]);
    expect(decoded.scope.clientInfo).toEqual(meta[ENVELOPE.clientInfo]);
    expect(decoded.scope.logLevel).toEqual(meta[ENVELOPE.logLevel]);
    // Put back, the envelope and the rest make the original request again.
    const rest = { ...(decoded.params._meta ?? {}) };
    const rebuilt: Json = { ...decoded.params, _meta: { ...meta, ...rest } };
    if (decoded.inputResponses !== undefined) rebuilt.inputResponses = decoded.inputResponses;
    if (decoded.requestState !== undefined) rebuilt.requestState = decoded.requestState;
    expect(rebuilt).toEqual(example.params);
    for (const key of [
      ENVELOPE.protocolVersion,
      ENVELOPE.clientCapabilities,
      ENVELOPE.clientInfo,
      ENVELOPE.logLevel,
    ]) {
      expect((decoded.params._meta as Json | undefined)?.[key]).toBeUndefined();
    }
  });

  const results = Object.entries(RESULT_TYPES).flatMap(([type, method]) =>
    examplesOf(type).map((example) => [type, method, example] as const),
  );

  it.each(results)('%s: encoding the 2025 shape gives the example back, valid', (type, method, example) => {
    const body: Json = example.result ?? example;
    const serverInfo = body._meta?.[ENVELOPE.serverInfo] ?? { name: 'example', version: '1.0.0' };
    // What a handler returns: the example without what the codec adds.
    const { resultType: _resultType, ...handlerResult } = body;
    const meta = { ...(handlerResult._meta ?? {}) };
    delete meta[ENVELOPE.serverInfo];
    if (Object.keys(meta).length > 0) handlerResult._meta = meta;
    else delete handlerResult._meta;
    const encoded = encodeModernResult(method, handlerResult, serverInfo);
    expect(validate(type, encoded)).toEqual([]);
    const expected = { ...body, _meta: { ...(body._meta ?? {}), [ENVELOPE.serverInfo]: serverInfo } };
    expect(encoded).toEqual(expected);
  });

  it('fills the caching hints a handler left out, and keeps the ones it set', () => {
    const info = { name: 's', version: '1' };
    const filled = encodeModernResult('tools/list', { tools: [] }, info);
    expect(filled).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(validate('ListToolsResult', filled)).toEqual([]);
    const kept = encodeModernResult(
      'resources/read',
      { contents: [], ttlMs: 60_000, cacheScope: 'public' },
      info,
    );
    expect(kept).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    // Not cacheable: no hints. An input_required result keeps its type and gets none either.
    expect(encodeModernResult('tools/call', { content: [] }, info).ttlMs).toBeUndefined();
    const asking = encodeModernResult(
      'resources/read',
      { resultType: 'input_required', requestState: 's' },
      info,
    );
    expect(asking.resultType).toBe('input_required');
    expect(asking.ttlMs).toBeUndefined();
  });

  it("copies the result: the handler's objects stay as they were, an own __proto__ stays data", () => {
    const info = { name: 's', version: '1' };
    const meta = JSON.parse('{"__proto__": {"polluted": true}, "keep": 1}');
    const result = JSON.parse('{"__proto__": {"polluted": true}, "content": []}');
    result._meta = meta;
    const encoded = encodeModernResult('tools/call', result, info);
    expect(Object.getPrototypeOf(encoded)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(encoded._meta)).toBe(Object.prototype);
    expect(Object.keys(encoded)).toEqual(['__proto__', 'content', '_meta', 'resultType']);
    expect(Object.keys(encoded._meta as object)).toEqual(['__proto__', 'keep', ENVELOPE.serverInfo]);
    expect((encoded as { polluted?: boolean }).polluted).toBeUndefined();
    expect(result).not.toHaveProperty('resultType');
    expect(Object.keys(meta)).toEqual(['__proto__', 'keep']);
  });

  it('maps the error kinds whose code differs by revision', () => {
    const notFound = new McpError(-32002, 'Resource not found: test://x', { uri: 'test://x' });
    const mapped = encodeModernError(notFound) as McpError;
    expect(mapped.code).toBe(-32602);
    expect(mapped.data).toEqual({ uri: 'test://x' });
    const other = new McpError(-32601, 'nope');
    expect(encodeModernError(other)).toBe(other);
  });

  it('rejects a malformed envelope with -32602 and an unknown version with -32022', () => {
    const code = (params: unknown) => {
      try {
        decodeModernRequest(params as Json);
        return undefined;
      } catch (error) {
        return (error as McpError).code;
      }
    };
    expect(code({ name: 'x' })).toBe(-32602);
    expect(code({ _meta: { [ENVELOPE.clientCapabilities]: {} } })).toBe(-32602);
    expect(code({ _meta: { [ENVELOPE.protocolVersion]: '2026-07-28' } })).toBe(-32602);
    expect(
      code({
        _meta: {
          [ENVELOPE.protocolVersion]: '2026-07-28',
          [ENVELOPE.clientCapabilities]: {},
          [ENVELOPE.logLevel]: 'loud',
        },
      }),
    ).toBe(-32602);
    expect(
      code({ _meta: { [ENVELOPE.protocolVersion]: '2099-01-01', [ENVELOPE.clientCapabilities]: {} } }),
    ).toBe(-32022);
  });
});

describe.skipIf(officialSchemaSkipped)('the method table against every revision schema', () => {
  const UNIONS = {
    ClientRequest: ['request', 'c2s'],
    ServerRequest: ['request', 's2c'],
    ClientNotification: ['notification', 'c2s'],
    ServerNotification: ['notification', 's2c'],
  } as const;

  function schemaMethods(revision: Revision, union: keyof typeof UNIONS): string[] {
    const schema = schemaOf(revision);
    const defs = schema.$defs ?? schema.definitions;
    const members: Json[] = defs[union]?.anyOf ?? [];
    return members.map((member) => defs[member.$ref.split('/').pop()].properties.method.const);
  }

  it.each(ALL_REVISIONS.map((revision) => [revision]))(
    '%s: the table has exactly the schema methods',
    (revision) => {
      for (const [union, [kind, direction]] of Object.entries(UNIONS)) {
        const fromSchema = schemaMethods(revision, union as keyof typeof UNIONS).sort();
        const fromTable = METHOD_TABLE.filter(
          (row) => row.kind === kind && row.direction === direction && rowCovers(row, revision),
        )
          .map((row) => row.method)
          .sort();
        expect({ union, methods: fromTable }).toEqual({ union, methods: fromSchema });
      }
    },
  );

  /** The row's own range (methodExists also counts the extension rows, which no schema lists). */
  function rowCovers(row: { since: Revision; until?: Revision }, revision: Revision): boolean {
    const at = (r: Revision) => ALL_REVISIONS.length - ALL_REVISIONS.indexOf(r);
    return at(row.since) <= at(revision) && (row.until === undefined || at(revision) <= at(row.until));
  }

  it('knows the tasks extension (SEP-2663) under 2026-07-28 only, without tasks/result and tasks/list', () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(methodExists(method, 'c2s', '2026-07-28'), method).toBe(true);
      expect(
        EXTENSION_METHOD_TABLE.some((row) => row.method === method && row.extension === TASKS_EXTENSION),
      ).toBe(true);
    }
    expect(methodExists('tasks/update', 'c2s', '2025-11-25')).toBe(false);
    expect(methodExists('tasks/result', 'c2s', '2026-07-28')).toBe(false);
    expect(methodExists('tasks/list', 'c2s', '2026-07-28')).toBe(false);
    expect(methodExists('tasks/get', 'c2s', '2025-06-18')).toBe(false);
  });

  it('gives every method one range per direction', () => {
    const seen = new Set<string>();
    for (const row of METHOD_TABLE) {
      const key = `${row.kind} ${row.direction} ${row.method}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('lets extension methods through and names what 2026-07-28 removed', () => {
    expect(methodExists('com.example/search', 'c2s', '2026-07-28')).toBe(true);
    for (const removed of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/list']) {
      expect(methodExists(removed, 'c2s', '2026-07-28'), removed).toBe(false);
      expect(methodExists(removed, 'c2s', '2025-11-25'), removed).toBe(true);
    }
    expect(methodExists('server/discover', 'c2s', '2025-11-25')).toBe(false);
  });
});
