// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the config files' own variable syntax
import { expect, it } from 'vitest';
import { parseHostConfig } from './config.js';
import { HostConfigError } from './errors.js';

const base = { file: 'mcp.json', workspaceFolder: '/work/project', env: { HOME: '/home/me' } } as const;

async function failure(run: Promise<unknown>): Promise<HostConfigError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HostConfigError);
  return error as HostConfigError;
}

it('reads every server of a VS Code file, asking each input once and writing nothing back', async () => {
  const text = JSON.stringify({
    inputs: [{ type: 'promptString', id: 'token', description: 'API token', password: true }],
    servers: {
      a: {
        type: 'stdio',
        command: 'node',
        args: ['${workspaceFolder}/a.js'],
        env: { TOKEN: '${input:token}' },
      },
      b: { type: 'http', url: 'https://b.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      c: {
        command: 'node',
        args: ['${env:HOME}/c.js'],
        disabled: true,
        autoApprove: ['read_*'],
        timeout: 30,
      },
    },
  });
  const asked: unknown[] = [];
  const servers = await parseHostConfig({
    ...base,
    text,
    ask: async (input) => {
      asked.push(input);
      return 's3cret';
    },
  });
  expect(asked).toEqual([{ id: 'token', description: 'API token', password: true }]);
  expect(servers.map((s) => s.name)).toEqual(['a', 'b', 'c']);
  expect(servers[0]).toMatchObject({ kind: 'stdio', args: ['/work/project/a.js'], env: { TOKEN: 's3cret' } });
  expect(servers[1]).toMatchObject({ kind: 'url', headers: { Authorization: 'Bearer s3cret' } });
  expect(servers[2]).toMatchObject({
    args: ['/home/me/c.js'],
    disabled: true,
    autoApprove: ['read_*'],
    timeoutMs: 30_000,
  });
  // The source text is the caller's; the secret is only in the parsed entries.
  expect(text).not.toContain('s3cret');
});

it('names the file, the server and the field of an unknown variable or a bad field', async () => {
  const unknown = await failure(
    parseHostConfig({
      ...base,
      text: JSON.stringify({ mcpServers: { s: { command: 'x', args: ['${userHome}'] } } }),
    }),
  );
  expect(unknown.message).toBe(
    'mcp.json: server "s", "args[0]" uses ${userHome}, which mcpkit cannot expand',
  );
  const unset = await failure(
    parseHostConfig({
      ...base,
      text: JSON.stringify({ mcpServers: { s: { command: 'x', env: { K: '${env:NOPE}' } } } }),
    }),
  );
  expect(unset.message).toBe('mcp.json: server "s", "env.K" uses ${env:NOPE}, but NOPE is not set');
  const noAsk = await failure(
    parseHostConfig({
      ...base,
      text: JSON.stringify({ inputs: [{ id: 'k' }], mcpServers: { s: { command: '${input:k}' } } }),
    }),
  );
  expect(noAsk.message).toContain('mcp.json: server "s", "command" uses ${input:k}');
  const cases: Array<[unknown, string]> = [
    [
      { mcpServers: { s: { command: 'x', disabled: 'yes' } } },
      'mcp.json: server "s": "disabled" must be true or false',
    ],
    [
      { mcpServers: { s: { command: 'x', timeout: -1 } } },
      'mcp.json: server "s": "timeout" must be a positive number',
    ],
    [
      { mcpServers: { s: { command: 'x', autoApprove: 'all' } } },
      'mcp.json: server "s": "autoApprove" must be an array',
    ],
  ];
  for (const [content, expected] of cases) {
    expect((await failure(parseHostConfig({ ...base, text: JSON.stringify(content) }))).message).toContain(
      expected,
    );
  }
});

it("reads an HTTP server's own oauth client, its secret from the environment", async () => {
  const text = JSON.stringify({
    mcpServers: {
      crm: {
        url: 'https://crm.example/mcp',
        oauth: { clientId: 'mcpkit-crm', clientSecret: '${env:CRM_SECRET}', scope: 'crm:read crm:write' },
      },
      // Claude Code's one string and Cursor's array both read as OAuth's space-separated scope.
      docs: { type: 'http', url: 'https://docs.example/mcp', oauth: { scopes: 'docs:read' } },
      wiki: {
        type: 'sse',
        url: 'https://wiki.example/sse',
        oauth: { scopes: ['wiki:read', 'offline_access'] },
      },
      // Cursor's own static OAuth object.
      cursor: {
        url: 'https://cursor.example/mcp',
        auth: { CLIENT_ID: 'cid', CLIENT_SECRET: '${env:CRM_SECRET}', scopes: ['mcp', 'offline_access'] },
      },
      plain: { url: 'https://plain.example/mcp' },
    },
  });
  const servers = await parseHostConfig({ ...base, text, env: { CRM_SECRET: 'sh-secret' } });
  expect(servers.map((s) => (s.kind === 'url' ? s.oauth : 'stdio'))).toEqual([
    { clientId: 'mcpkit-crm', clientSecret: 'sh-secret', scope: 'crm:read crm:write' },
    { scope: 'docs:read' },
    { scope: 'wiki:read offline_access' },
    { clientId: 'cid', clientSecret: 'sh-secret', scope: 'mcp offline_access' },
    undefined,
  ]);
  expect(text).not.toContain('sh-secret');
});

it('refuses an oauth object it cannot use, naming the server and the field', async () => {
  const entry = (oauth: unknown, more: object = { url: 'https://s.example/mcp' }) =>
    JSON.stringify({ mcpServers: { s: { ...more, oauth } } });
  const cases: Array<[string, string]> = [
    [entry('id'), 'mcp.json: server "s": "oauth" must be an object'],
    [entry({ clientID: 'x' }), 'mcp.json: server "s": "oauth.clientID" is not a field mcpkit knows'],
    [entry({ callbackPort: 8080 }), 'mcp.json: server "s": "oauth.callbackPort" is not a field mcpkit knows'],
    [entry({ clientId: 7 }), 'mcp.json: server "s": "oauth.clientId" must be a non-empty string'],
    [entry({ clientId: ' ' }), 'mcp.json: server "s": "oauth.clientId" must be a non-empty string'],
    [entry({ clientSecret: 'x' }), 'mcp.json: server "s": "oauth.clientSecret" needs "oauth.clientId"'],
    [entry({ scope: 'a', scopes: 'b' }), 'mcp.json: server "s": "oauth" has both "scope" and "scopes"'],
    [entry({ scopes: ['a b'] }), 'mcp.json: server "s": "oauth.scopes" must be a space-separated string'],
    [entry({ scopes: [] }), 'mcp.json: server "s": "oauth.scopes" must be a space-separated string'],
    [entry({ clientId: 'x' }, { command: 'node' }), 'mcp.json: server "s": "oauth" applies to HTTP servers'],
    [
      entry({}, { url: 'https://s.example/mcp', auth: {} }),
      'mcp.json: server "s" has both "oauth" and "auth"',
    ],
    [
      entry(undefined, { url: 'https://s.example/mcp', auth: { clientId: 'x' } }),
      '"auth.clientId" is not a field',
    ],
    [
      entry(undefined, { url: 'https://s.example/mcp', auth: { CLIENT_SECRET: 'x' } }),
      '"auth.CLIENT_SECRET" needs "auth.CLIENT_ID"',
    ],
  ];
  for (const [text, expected] of cases) {
    expect((await failure(parseHostConfig({ ...base, text }))).message).toContain(expected);
  }
  const hint = await failure(parseHostConfig({ ...base, text: entry({ callbackPort: 8080 }) }));
  expect(hint.hint).toContain('any port');
  const unset = await failure(
    parseHostConfig({ ...base, text: entry({ clientId: 'x', clientSecret: '${env:NOPE}' }) }),
  );
  expect(unset.message).toBe(
    'mcp.json: server "s", "oauth.clientSecret" uses ${env:NOPE}, but NOPE is not set',
  );
});
