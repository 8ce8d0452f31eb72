import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, scanParamHeaders } from './paramHeaders.js';

describe('header value encoding (2026-07-28 streamable-http "Value Encoding" table)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['us west 1', 'us west 1'],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['', ''],
  ])('%j is sent as %j', (value, sent) => {
    expect(encodeHeaderValue(value)).toBe(sent);
    expect(decodeHeaderValue(sent)).toBe(value);
  });
});

describe('header value decoding', () => {
  it.each([
    ['=?base64?dXMtd2VzdDE?=', 'missing padding'],
    ['=?base64?dXMt!!!d2VzdDE=?=', 'a character outside the alphabet'],
    ['=?base64?/w==?=', 'bytes that are not UTF-8'],
    ['caf\u00e9', 'a character a header may not hold'],
  ])('refuses %j (%s)', (value) => {
    expect(decodeHeaderValue(value)).toBeUndefined();
  });
});

describe('x-mcp-header annotations', () => {
  const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    ...extra,
  });

  it('finds annotations through properties, in document order', () => {
    const scan = scanParamHeaders(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        where: { type: 'object', properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } } },
      }),
    );
    expect(scan).toEqual({
      headers: [
        { path: ['region'], name: 'Region' },
        { path: ['where', 'zone'], name: 'Zone' },
      ],
      problem: undefined,
    });
  });

  it('reads no annotation in data (const, enum, default, examples)', () => {
    const scan = scanParamHeaders(schema({ a: { type: 'object', default: { 'x-mcp-header': 'A' } } }));
    expect(scan.problem).toBeUndefined();
    expect(scan.headers).toEqual([]);
  });

  it.each([
    [
      'unreachable',
      schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } }),
      '/a/items',
    ],
    ['empty', schema({ a: { type: 'string', 'x-mcp-header': '' } }), '/a'],
    ['token', schema({ a: { type: 'string', 'x-mcp-header': 'A:B' } }), '/a'],
    ['type', schema({ a: { type: 'number', 'x-mcp-header': 'N' } }), '/a'],
    [
      'twice',
      schema({ a: { type: 'string', 'x-mcp-header': 'R' }, b: { type: 'string', 'x-mcp-header': 'r' } }),
      '/b',
    ],
  ])('reports %s at %s', (reason, input, pointer) => {
    expect(scanParamHeaders(input).problem).toMatchObject({ reason, pointer });
  });

  it('stops at a schema nested too deep, and says so', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { n: deep } };
    expect(scanParamHeaders(deep).problem?.reason).toBe('depth');
  });
});
