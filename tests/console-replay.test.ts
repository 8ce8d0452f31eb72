/**
 * Record and replay of `@mcpkit/console/replay` (issue 32), in process: a session recorded from
 * the protocol log of a real client and server, replayed against the same server (every answer the
 * same) and against a changed one (each changed field named, with its old and new value); ignore
 * paths; lists fetched page by page recorded as one exchange; a session recorded against a host of
 * two servers whose names collide, replayed through a host to each exchange's server. The browser
 * and `mcpkit replay` run the same module: tests/browser-console-replay.test.ts and
 * tests/browser-console-host.test.ts.
 */
import { McpClient } from '@mcpkit/client';
import {
  clientExchange,
  compareAnswers,
  formatPath,
  hostExchange,
  isIgnored,
  jsonDifferences,
  type LoggedMessage,
  parseIgnorePath,
  parseSession,
  recordSession,
  replaySession,
  SessionFileError,
} from '@mcpkit/console/replay';
import { createInMemoryPair } from '@mcpkit/core';
import { McpHost } from '@mcpkit/host';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { LoggedTransport } from '../packages/console/src/protocolLog.js';

/** A server whose answers `variant` changes; one tool answers the time, different on every call. */
function server(variant: 'before' | 'after') {
  const built = new McpServer(
    { name: 'replayed', version: '1.0.0' },
    { pageSize: 2, resources: resourceSupport, prompts: promptSupport },
  );
  built.tool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    ({ text }: { text: string }) => (variant === 'before' ? text : `${text}!`),
  );
  built.tool('clock', () => ({
    content: [{ type: 'text', text: 'now' }],
    structuredContent: { at: new Date().toISOString(), zone: 'UTC' },
  }));
  built.tool('add', { description: variant === 'before' ? 'Adds' : 'Adds two numbers' }, () => '3');
  if (variant === 'after') built.tool('subtract', () => '1');
  built.resource('demo://readme', { mimeType: 'text/plain' }, () => 'Read me');
  built.prompt('greet', { arguments: [{ name: 'name', required: true }] }, ({ name }) => `Hello ${name}`);
  return built;
}

async function connect(variant: 'before' | 'after', entries?: LoggedMessage[]) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server(variant).connect(serverSide);
  const client = new McpClient({ name: 'test', version: '1.0.0' });
  await client.connect(
    entries ? new LoggedTransport(clientSide, (entry) => entries.push(entry)) : clientSide,
  );
  return client;
}

/** A host of two servers, `a` and `b` (every name collides), each connection logged with its server. */
function host(variants: { a: 'before' | 'after'; b: 'before' | 'after' }, entries?: LoggedMessage[]) {
  return new McpHost({
    servers: [
      { name: 'a', kind: 'stdio', command: 'unused', args: [], env: {}, disabled: false, autoApprove: [] },
      { name: 'b', kind: 'stdio', command: 'unused', args: [], env: {}, disabled: false, autoApprove: [] },
    ],
    connector: async (entry) => {
      const [clientSide, serverSide] = createInMemoryPair();
      await server(variants[entry.name as 'a' | 'b']).connect(serverSide);
      return entries
        ? new LoggedTransport(clientSide, (logged) => entries.push(logged), entry.name)
        : clientSide;
    },
    // Their tools are called without asking (no one to ask here).
    policy: { a: { trusted: true }, b: { trusted: true } },
    startBudgetMs: Number.POSITIVE_INFINITY,
  });
}

describe('mcpkit-console-session: record, replay, diff', () => {
  it('records a session from the protocol log and replays it: the same server answers the same', async () => {
    const entries: LoggedMessage[] = [];
    const client = await connect('before', entries);
    await client.tools();
    await client.callTool('echo', { text: 'hi' });
    await client.callTool('clock', {});
    await client.readResource('demo://readme');
    await client.getPrompt('greet', { name: 'Ada' });
    await client.callTool('nope', {}).catch(() => {});
    await client.close();
    const session = recordSession(entries, '-- node server.js', '2025-11-25');
    expect(session.exchanges.map((exchange) => exchange.method)).toEqual([
      'tools/list',
      'tools/call',
      'tools/call',
      'resources/read',
      'prompts/get',
      'tools/call',
    ]);
    // Three tools in pages of two: one exchange with every page's items, no cursor.
    expect((session.exchanges[0]!.result as any).tools.map((tool: any) => tool.name)).toEqual([
      'echo',
      'clock',
      'add',
    ]);
    expect(session.exchanges[0]!.params).toEqual({});
    expect(session.exchanges[5]!.error).toMatchObject({ code: -32602 });
    const saved = parseSession(JSON.stringify(session));

    const same = await connect('before');
    const report = await replaySession(saved, clientExchange(same));
    // The clock's time differs on every run: that one difference, until it is ignored.
    expect(report.changed).toBe(1);
    expect(report.outcomes[2]!.differences.map((difference) => difference.path)).toEqual([
      'structuredContent.at',
    ]);
    const ignoring = await replaySession(saved, clientExchange(same), { ignore: ['structuredContent.at'] });
    expect(ignoring).toMatchObject({ total: 6, changed: 0, ignore: ['structuredContent.at'] });
    expect(ignoring.outcomes[2]).toMatchObject({ same: true, ignored: 1 });
    await same.close();

    // A changed server: each field named, with its old and new value.
    const changed = await connect('after');
    const after = await replaySession({ ...saved, ignore: ['**.at'] }, clientExchange(changed));
    expect(after.changed).toBe(2);
    expect(after.outcomes[0]!.differences).toEqual([
      expect.objectContaining({
        change: 'changed',
        path: 'tools.add.description',
        before: 'Adds',
        after: 'Adds two numbers',
      }),
      expect.objectContaining({ change: 'added', path: 'tools.subtract' }),
    ]);
    expect(after.outcomes[1]!.differences).toEqual([
      expect.objectContaining({ change: 'changed', path: 'content[0].text', before: 'hi', after: 'hi!' }),
    ]);
    await changed.close();
  });

  it('a server error where there was a result (and back) is a change; a failure of the replay is thrown', async () => {
    const client = await connect('before');
    const session = parseSession(
      JSON.stringify({
        format: 'mcpkit-console-session',
        version: 1,
        target: 'x',
        exchanges: [
          { method: 'tools/call', params: { name: 'gone', arguments: {} }, result: { content: [] } },
        ],
      }),
    );
    const report = await replaySession(session, clientExchange(client));
    expect(report.outcomes[0]!.differences.map(({ change, path }) => `${change} ${path}`)).toEqual([
      'removed content',
      'removed isError',
      'added error',
    ]);
    const lost = new Error('connection lost');
    await expect(replaySession(session, () => Promise.reject(lost), { isAnswer: () => false })).rejects.toBe(
      lost,
    );
    await client.close();
  });

  it('diffs JSON field by field, key order ignored, and names the paths as people write them', () => {
    expect(jsonDifferences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 3] }, a: 1 })).toEqual([
      { change: 'changed', path: 'b.c[1]', segments: ['b', 'c', 1], before: 2, after: 3 },
    ]);
    expect(jsonDifferences({ a: 1 }, { a: 1 })).toEqual([]);
    expect(jsonDifferences(1, 2)).toEqual([
      { change: 'changed', path: '', segments: [], before: 1, after: 2 },
    ]);
    expect(formatPath(['resources', 'demo://readme', 'name'])).toBe('resources["demo://readme"].name');
    // A key named like an Object.prototype member is compared like any other.
    const { differences } = compareAnswers(
      'tools/call',
      { result: { content: [], structuredContent: {} } },
      { result: { content: [], structuredContent: { constructor: 1 } } },
    );
    expect(differences.map((difference) => difference.path)).toEqual(['structuredContent.constructor']);
  });

  it('reads ignore paths: keys, indexes, quoted keys, * and **, and refuses what it cannot read', () => {
    const paths = ['content[*].text', 'resources["demo://clock"]', '**.timestamp'].map(parseIgnorePath);
    expect(isIgnored(['content', 3, 'text'], paths)).toBe(true);
    expect(isIgnored(['content', 3, 'type'], paths)).toBe(false);
    expect(isIgnored(['resources', 'demo://clock', 'size'], paths)).toBe(true);
    expect(isIgnored(['structuredContent', 'items', 0, 'timestamp'], paths)).toBe(true);
    expect(isIgnored(['timestamp'], paths)).toBe(true);
    expect(isIgnored(['structuredContent'], [parseIgnorePath('structuredContent.at')])).toBe(false);
    for (const bad of ['', 'a..b', 'a[', 'a["x]', 'a b', '**.**.**.**.x'])
      expect(() => parseIgnorePath(bad), bad).toThrow(SyntaxError);
  });

  it('leaves out a list whose later pages were never fetched (a replay lists every page)', () => {
    const page = (id: number, cursor: string | undefined, next: string | undefined): LoggedMessage[] => [
      {
        dir: 'out',
        method: 'prompts/list',
        id,
        message: { id, method: 'prompts/list', params: cursor ? { cursor } : {} },
      },
      {
        dir: 'in',
        id,
        message: { id, result: { prompts: [{ name: `p${id}` }], ...(next ? { nextCursor: next } : {}) } },
      },
    ];
    expect(recordSession(page(1, undefined, 'c2'), 'x').exchanges).toEqual([]);
    const whole = recordSession([...page(1, undefined, 'c2'), ...page(2, 'c2', undefined)], 'x').exchanges;
    expect(whole).toEqual([
      { method: 'prompts/list', params: {}, result: { prompts: [{ name: 'p1' }, { name: 'p2' }] } },
    ]);
  });

  it('records a host session per server and replays each exchange to its server through a host', async () => {
    const entries: LoggedMessage[] = [];
    const recorded = host({ a: 'before', b: 'before' }, entries);
    expect((await recorded.tools()).map((tool) => tool.name)).toContain('b__echo');
    await recorded.callTool('a__echo', { text: 'to a' });
    await recorded.callTool('b__echo', { text: 'to b' });
    await recorded.readResource('mcp-host://b/demo://readme');
    await recorded.getPrompt('a__greet', { name: 'Ada' });
    await recorded.close();
    // Both connections number their requests from the same id: answers are matched per server.
    const session = recordSession(entries, '--config mcp.json', undefined, true);
    expect(recordSession(entries, 'x').exchanges).toEqual([]);
    const labels = session.exchanges.map((exchange) => `${exchange.server} ${exchange.method}`);
    expect(labels).toEqual(
      expect.arrayContaining(['a tools/list', 'b tools/list', 'a tools/call', 'b tools/call']),
    );
    const callOn = (name: string) =>
      session.exchanges.find((exchange) => exchange.server === name && exchange.method === 'tools/call')!;
    // As each server saw it: its own name, its own answer.
    expect(callOn('a')).toMatchObject({ params: { name: 'echo', arguments: { text: 'to a' } } });
    expect((callOn('b').result as any).content).toEqual([{ type: 'text', text: 'to b' }]);
    const bList = session.exchanges.find(
      (exchange) => exchange.server === 'b' && exchange.method === 'tools/list',
    )!;
    expect((bList.result as any).tools.map((tool: any) => tool.name)).toEqual(['echo', 'clock', 'add']);
    expect(session.exchanges.find((exchange) => exchange.method === 'resources/read')).toMatchObject({
      server: 'b',
      params: { uri: 'demo://readme' },
    });
    const saved = parseSession(JSON.stringify({ ...session, ignore: ['**.at'] }));

    const same = host({ a: 'before', b: 'before' });
    const again = await replaySession(saved, hostExchange(clientExchange(same)));
    expect(again.outcomes.filter((outcome) => !outcome.same)).toEqual([]);
    await same.close();

    // Only b changed: its exchanges are the changed ones, each field named; a server the host no
    // longer has answers as the host does for a name it does not hold.
    const changed = host({ a: 'before', b: 'after' });
    const gone = { server: 'c', method: 'tools/call', params: { name: 'echo', arguments: {} }, result: {} };
    const after = await replaySession(
      { ...saved, exchanges: [...saved.exchanges, gone] },
      hostExchange(clientExchange(changed)),
    );
    const changes = after.outcomes
      .filter((outcome) => !outcome.same)
      .map(
        (outcome) =>
          `${outcome.exchange.server} ${outcome.exchange.method}: ${outcome.differences.map((d) => `${d.change} ${d.path}`).join(', ')}`,
      );
    expect(changes).toEqual([
      'b tools/list: changed tools.add.description, added tools.subtract',
      'b tools/call: changed content[0].text',
      'c tools/call: removed isError, added error',
    ]);
    expect(after.outcomes.at(-1)!.now.error).toEqual({
      code: -32602,
      message: 'Server "c" offers no "echo" now',
    });
    await changed.close();
  });

  it('refuses a file that is not a saved session, saying why', () => {
    expect(() => parseSession('not json')).toThrow(SessionFileError);
    expect(() => parseSession('{"format":"other","version":1,"exchanges":[]}')).toThrow(/version 1/);
    expect(() =>
      parseSession(
        '{"format":"mcpkit-console-session","version":1,"target":"x","exchanges":[{"method":"tools/delete","params":{}}]}',
      ),
    ).toThrow(/exchanges\[0\]: "method" must be one of/);
    expect(() =>
      parseSession(
        '{"format":"mcpkit-console-session","version":1,"target":"x","exchanges":[{"server":1,"method":"tools/list","params":{}}]}',
      ),
    ).toThrow(/exchanges\[0\]: "server" must be/);
  });
});
