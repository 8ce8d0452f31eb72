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
