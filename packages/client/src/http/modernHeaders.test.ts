import { describe, expect, it } from 'vitest';
import { addStandardHeaders, ToolHeaders } from './modernHeaders.js';

describe('standard headers', () => {
  it('names the tool, prompt or resource; other methods carry only Mcp-Method', () => {
    const call: Record<string, string> = {};
    addStandardHeaders(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'héllo' } },
      '2026-07-28',
      call,
    );
    expect(call).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': '=?base64?aMOpbGxv?=',
    });
    const read: Record<string, string> = {};
    addStandardHeaders(
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///a b' } },
      '2026-07-28',
      read,
    );
    expect(read['mcp-name']).toBe('file:///a b');
    const list: Record<string, string> = {};
    addStandardHeaders(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { name: 'ignored' } },
      '2026-07-28',
      list,
    );
    expect(list).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  });
});

describe('x-mcp-header annotations', () => {
  const tool = (name: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name,
    inputSchema: { type: 'object', properties, ...extra },
  });

  it('mirrors annotated primitives found through properties, nested ones too; omits null and absent', () => {
    const headers = new ToolHeaders();
    const listing = {
      tools: [
        tool('sql', {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
          where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
          query: { type: 'string' },
        }),
      ],
    };
    expect(headers.learn(listing)).toEqual([]);
    const sent: Record<string, string> = {};
    headers.forCall(
      'sql',
      { region: 'eu', limit: 42, dry: false, where: { zone: 'b' }, query: 'SELECT 1' },
      sent,
    );
    expect(sent).toEqual({
      'mcp-param-region': 'eu',
      'mcp-param-limit': '42',
      'mcp-param-dry': 'false',
      'mcp-param-zone': 'b',
    });
    const partial: Record<string, string> = {};
    headers.forCall('sql', { region: null, limit: 1 }, partial);
    expect(partial).toEqual({ 'mcp-param-limit': '1' });
  });

  it('leaves out (only) tools whose annotations break a rule, saying why', () => {
    const headers = new ToolHeaders();
    const listing = {
      tools: [
        tool('ok', { a: { type: 'string', 'x-mcp-header': 'A' } }),
        tool('empty', { a: { type: 'string', 'x-mcp-header': '' } }),
        tool('number', { a: { type: 'number', 'x-mcp-header': 'A' } }),
        tool('object', { a: { type: 'object', 'x-mcp-header': 'A' } }),
        tool('twice', {
          a: { type: 'string', 'x-mcp-header': 'Same' },
          b: { type: 'string', 'x-mcp-header': 'same' },
        }),
        tool('space', { a: { type: 'string', 'x-mcp-header': 'My Region' } }),
        tool('colon', { a: { type: 'string', 'x-mcp-header': 'A:B' } }),
        tool('accent', { a: { type: 'string', 'x-mcp-header': 'Régión' } }),
        tool('in-items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }),
        tool('in-anyOf', {}, { anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }),
        tool(
          'in-defs',
          { a: { $ref: '#/$defs/x' } },
          { $defs: { x: { type: 'string', 'x-mcp-header': 'A' } } },
        ),
      ],
    };
    const refused = headers.learn(listing);
    expect(listing.tools.map((t) => t.name)).toEqual(['ok']);
    expect(refused).toHaveLength(10);
    expect(refused.join('\n')).toMatch(/"empty" left out: x-mcp-header on "a" is empty/);
    expect(refused.join('\n')).toMatch(/"twice" left out: x-mcp-header "same" is used twice/);
    expect(refused.join('\n')).toMatch(/"in-items" left out: .*not reachable through "properties" alone/);
  });
});
