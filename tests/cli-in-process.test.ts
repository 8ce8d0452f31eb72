/**
 * The `mcpkit` CLI run in-process through `runCli(argv, io)`, with its own streams: the same
 * parsing, client, transports and error reporting as `npx mcpkit`, without paying for a Node
 * process per command. The demo server runs in this process over real Streamable HTTP.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toNodeListener } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoServer } from '../packages/cli/src/index.js';
import { type CliRun, runCliInProcess } from './support/inProcessCli.js';

/** Runs `mcpkit ARGS…` in this process, off a terminal, and collects what it prints. */
function mcpkit(...argv: string[]): Promise<CliRun> {
  return runCliInProcess(argv);
}

let http: Server;
let url = '';

beforeAll(async () => {
  http = createServer(toNodeListener(createStreamableHttpHandler(createDemoServer({ clockIntervalMs: 0 }))));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

describe.concurrent('mcpkit complete (issue 10)', { timeout: 30_000 }, () => {
  it('the complete examples in --help return completions on the demo server', async () => {
    const help = await mcpkit('complete', '--help');
    const examples = [...help.stdout.matchAll(/^ {2}mcpkit complete URL (.+)$/gm)].map((match) =>
      // The examples quote a template for the shell; split the line as a shell would.
      [...match[1]!.matchAll(/'([^']*)'|(\S+)/g)].map((word) => word[1] ?? word[2]!),
    );
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const words of examples) {
      const run = await mcpkit('complete', url, ...words);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toContain('(no completions)');
      expect(run.stdout.trim()).not.toBe('');
    }
  });

  it('an unknown prompt in complete is a usage error (exit 2)', async () => {
    const run = await mcpkit('complete', url, 'translat', 'language=Fr');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('The server has no prompt "translat"');
    expect(run.stderr).toContain('Did you mean "translate"?');
  });

  it('an unknown argument name in complete is a usage error, not "(no completions)"', async () => {
    const [prompt, template] = await Promise.all([
      mcpkit('complete', url, 'translate', 'langauge=Fr'),
      mcpkit('complete', url, 'demo://items/{category}/{id}', 'kind=f'),
    ]);
    expect(prompt.code, prompt.stderr).toBe(2);
    expect(prompt.stdout).toBe('');
    expect(prompt.stderr).toBe(
      'Error: The prompt "translate" has no argument "langauge"\nTry: Its arguments: text, language\n',
    );
    expect(template.code, template.stderr).toBe(2);
    expect(template.stderr).toBe(
      'Error: The template demo://items/{category}/{id} has no argument "kind"\nTry: Its arguments: category, id\n',
    );
  });
});

/** A stdio server script that answers only the handshake and tools/list, then goes silent. */
function silentServer(options: { handshake: boolean; ignoreSigterm: boolean; pidFile?: string }): string {
  const answers = {
    initialize: {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'silent', version: '1' },
    },
    'tools/list': { tools: [{ name: 'wait', inputSchema: { type: 'object' } }] },
  };
  return [
    options.pidFile
      ? `require('fs').writeFileSync(${JSON.stringify(options.pidFile)},String(process.pid));`
      : '',
    options.ignoreSigterm ? "process.on('SIGTERM',()=>{});" : '',
    'setInterval(()=>{},1000);',
    options.handshake
      ? `const answers=${JSON.stringify(answers)};let b='';process.stdin.setEncoding('utf8').on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);const result=answers[m.method];if(m.id===undefined||!result)continue;process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result})+'\\n')}})`
      : 'process.stdin.resume();',
  ].join('');
}

describe.concurrent('mcpkit --timeout (issue 10)', { timeout: 30_000 }, () => {
  it('a handshake that times out exits 5, as the README says', async () => {
    const run = await mcpkit(
      'list',
      '--timeout',
      '800ms',
      '--',
      process.execPath,
      '-e',
      silentServer({ handshake: false, ignoreSigterm: false }),
    );
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toMatch(/^Error: (Timed out after 800 ms|The server did not answer the handshake)/);
  });

  it('--timeout is a hard deadline: no waiting for a cancel POST that hangs', async () => {
    // The demo over HTTP, except that a POST carrying notifications/cancelled is never answered.
    const listener = toNodeListener(createStreamableHttpHandler(createDemoServer({ clockIntervalMs: 0 })));
    const hanging = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (body.includes('notifications/cancelled')) return; // never answered
        // The body is read already; the adapter takes it parsed, as from a framework.
        if (body.length > 0) Object.assign(req, { body: JSON.parse(body.toString('utf8')) });
        listener(req, res);
      });
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/mcp`;
      const started = performance.now();
      const run = await mcpkit(
        'call',
        target,
        'slow_count',
        'steps=100',
        'delayMs=100',
        '--timeout',
        '1500ms',
      );
      const elapsed = performance.now() - started;
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr).toContain('Error: Timed out after 1.5 s (--timeout).');
      // The deadline plus the CLI's 100 ms for last words, plus slack for a loaded machine; the old
      // overshoot (1 s waiting for the cancel POST, 2 s of kill grace) stays well outside.
      expect(elapsed).toBeLessThan(1500 + 800);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('--timeout is a hard deadline: no waiting out the kill grace of a stdio server that ignores SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-deadline-'));
    const pidFile = path.join(dir, 'pid');
    try {
      const run = await mcpkit(
        'call',
        'wait',
        '--timeout',
        '1500ms',
        '--',
        process.execPath,
        '-e',
        silentServer({ handshake: true, ignoreSigterm: true, pidFile }),
      );
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr).toContain('Error: Timed out after 1.5 s (--timeout).');
      // An order, not a duration: the CLI is done while the server, which ignores SIGTERM, still
      // runs. Had it waited out the kill grace, the server would be gone (SIGKILL) by now.
      const pid = Number(await readFile(pidFile, 'utf8'));
      expect(() => process.kill(pid, 0)).not.toThrow();
      process.kill(pid, 'SIGKILL');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('mcpkit with its arguments in the wrong order (issue 10)', { timeout: 30_000 }, () => {
  it('swapped arguments: the URL after the tool name is accepted (call add URL a=1)', async () => {
    const run = await mcpkit('call', 'add', url, 'a=1', 'b=2');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('3\n');
  });

  it('swapped arguments: hints name the user\'s own verb and never say "Try: Try:"', async () => {
    const [dashes, noUrl] = await Promise.all([mcpkit('call', '--'), mcpkit('get', 'greet')]);
    expect(dashes.code).toBe(2);
    expect(dashes.stderr).toBe(
      'Error: `--` must be followed by the command that starts the server\nTry: mcpkit call -- node server.js\n',
    );
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toBe(
      'Error: "greet" is not a server URL\nTry: To start a server over stdio, put its command after `--`: mcpkit get -- greet …\n',
    );
  });
});

describe('mcpkit watch and call --out (issue 35)', { timeout: 30_000 }, () => {
  let watched: Server;
  let watchedUrl = '';
  const server = new McpServer({ name: 'changing', version: '1.0.0' }, { resources: resourceSupport });
  server.tool('first', () => 'one');
  server.resource('state://now', { name: 'now' }, () => 'now');

  beforeAll(async () => {
    watched = createServer(toNodeListener(createStreamableHttpHandler(server)));
    await new Promise<void>((resolve) => watched.listen(0, '127.0.0.1', resolve));
    watchedUrl = `http://127.0.0.1:${(watched.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    watched?.closeAllConnections();
    await new Promise((resolve) => watched?.close(resolve));
  });

  it('prints resource updates and list changes as they come, and --timeout ends it with exit 0', async () => {
    const changes = setInterval(() => server.notifyResourceUpdated('state://now'), 100);
    const later = setTimeout(() => server.tool('second', () => 'two'), 400);
    try {
      for (const verb of ['watch', 'subscribe']) {
        const run = await mcpkit(verb, watchedUrl, 'state://now', '--json', '--timeout', '1500ms');
        expect(run.code, run.stderr).toBe(0);
        const events = run.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(events.filter((event) => event.event === 'resources/updated').length).toBeGreaterThan(2);
        expect(events.every((event) => typeof event.time === 'string')).toBe(true);
        if (verb === 'watch') {
          expect(events).toContainEqual(
            expect.objectContaining({
              event: 'tools/list_changed',
              added: ['second'],
              removed: [],
              count: 2,
            }),
          );
        }
        expect(run.stderr).toContain('Watching state://now, the tools list');
      }
    } finally {
      clearInterval(changes);
      clearTimeout(later);
    }
  });

  it('call --out saves images and audio as files and prints their paths', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-out-'));
    try {
      const logo = await mcpkit('call', url, 'logo', '--out', dir);
      expect(logo.code, logo.stderr).toBe(0);
      const file = path.join(dir, 'logo-2.png');
      expect(logo.stdout).toContain(`→ ${file}]`);
      expect((await readFile(file)).subarray(1, 4).toString('latin1')).toBe('PNG');
      // A second call never overwrites the first file.
      const again = await mcpkit('call', url, 'logo', '--out', dir);
      expect(again.stdout).toContain(`→ ${path.join(dir, 'logo-2-2.png')}]`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('usage mistakes a newcomer makes (issue 35)', { timeout: 30_000 }, () => {
  it('a URL and a command after `--` is a usage error, not a silent choice of the command', async () => {
    const run = await mcpkit('call', url, 'add', 'a=1', '--', 'node', 'x.js');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `Error: Give either a URL (${url}) or a command after \`--\`, not both\nTry: mcpkit call ${url} … or mcpkit call … -- node x.js\n`,
    );
  });

  it('a usage line is labelled "Usage:" once, never "Try: Usage:"', async () => {
    const run = await mcpkit('read', url);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('Error: "read" needs a URI\nUsage: mcpkit read TARGET URI\n');
  });

  it('serve --folder with a missing directory says so, and what to give instead', async () => {
    const missing = path.join(tmpdir(), 'mcpkit-no-such-folder');
    const run = await mcpkit('serve', '--http', '--port', '0', '--folder', missing);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Cannot serve --folder ${missing}:`);
    expect(run.stderr).toContain('does not exist');
    expect(run.stderr).toMatch(
      /Try: Give the path of an existing directory \(a relative path starts at .+\)\n$/,
    );
  });
});

describe.concurrent('mcpkit and a stdio server that misbehaves (issue 10)', { timeout: 30_000 }, () => {
  it('crash reports keep the first Error: line above a long stack, and do not repeat the header', async () => {
    const crash =
      'console.error("starting up");console.error("Error: API_KEY is not set");' +
      'for(let i=0;i<60;i++)console.error("    at someFunction"+i+" (/home/me/project/src/server.js:"+i+")");' +
      'process.exit(1)';
    const run = await mcpkit('list', '--', process.execPath, '-e', crash);
    expect(run.code, run.stderr).toBe(3);
    const [message] = run.stderr.split('\nTry: ');
    expect(message).toBe(
      [
        `Error: MCP server process "${process.execPath}" exited with code 1.`,
        'Its output on stderr:',
        'Error: API_KEY is not set',
        '…',
        ...Array.from(
          { length: 15 },
          (_, k) => `    at someFunction${45 + k} (/home/me/project/src/server.js:${45 + k})`,
        ),
      ].join('\n'),
    );
    expect(run.stderr.match(/someFunction59/g)).toHaveLength(1);
  });

  it('a stdio server printing non-JSON on stdout: the error quotes the offending line, not only a timeout', async () => {
    const chatty = 'console.log("Server listening on stdio...");setInterval(()=>{},1000)';
    const run = await mcpkit('list', '--timeout', '1s', '--', process.execPath, '-e', chatty);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain('Error: Timed out after 1 s (--timeout).');
    expect(run.stderr).toContain('not JSON: "Server listening on stdio..."');
    expect(run.stderr).toContain(
      'Try: A stdio server must write only JSON-RPC messages to stdout; send its logs to stderr (console.error)',
    );
  });
});

describe('mcpkit when the server dies during an HTTP call (issue 10)', { timeout: 30_000 }, () => {
  /** Runs `slow_count` against a server that goes away for good a second into the call. */
  async function callDyingServer(...options: string[]): Promise<{ run: CliRun }> {
    const dying = createServer(
      toNodeListener(createStreamableHttpHandler(createDemoServer({ clockIntervalMs: 0 }))),
    );
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(dying.address() as AddressInfo).port}/mcp`;
    const running = mcpkit('call', ...options, target, 'slow_count', 'steps=100', 'delayMs=100');
    // Let the call start and send a few progress events, then the server goes away for good.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    dying.closeAllConnections();
    await new Promise((resolve) => dying.close(resolve));
    dying.closeAllConnections();
    const run = await running;
    return { run };
  }

  it('a server that dies during an HTTP call (2025 session): the CLI says it is retrying, gives up soon, and says "connection lost"', async () => {
    // --era 2025: resuming the answer stream (GET with Last-Event-ID) is 2025 session behaviour.
    const { run } = await callDyingServer('--era', '2025');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('Connection lost (ECONNREFUSED); retrying…');
    expect(run.stderr).toMatch(/Error: Connection lost: /);
    expect(run.stderr).not.toContain('The server answered with an error');
    // Two attempts (the demo's retry: 1 s, then 1.5 s), not the library's five over 13 s: counted
    // in the error, not timed.
    expect(run.stderr).toContain(': 2 reconnection attempt(s) failed, the last with: GET ');
  });

  it('under 2026-07-28 (the default era) it says "connection lost" at once: answer streams cannot be resumed', async () => {
    const { run } = await callDyingServer();
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).not.toContain('retrying');
    expect(run.stderr).toMatch(
      /Error: Connection lost: .*revision 2026-07-28 answer streams cannot be resumed/,
    );
    expect(run.stderr).not.toContain('The server answered with an error');
  });
});

describe.concurrent('VS Code variables in config files (issue 10)', { timeout: 30_000 }, () => {
  const scratch: string[] = [];
  afterAll(async () => {
    await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** Writes `.vscode/mcp.json` in a fresh folder; its one server prints its arguments and exits. */
  async function vscodeConfig(args: string[], extra: Record<string, unknown> = {}): Promise<string> {
    const workspace = await mkdtemp(path.join(tmpdir(), 'mcpkit-vscode-'));
    scratch.push(workspace);
    await mkdir(path.join(workspace, '.vscode'));
    const file = path.join(workspace, '.vscode', 'mcp.json');
    const server = {
      command: process.execPath,
      args: ['-e', 'console.error("args=" + process.argv.slice(1).join("|")); process.exit(9)', ...args],
    };
    await writeFile(file, JSON.stringify({ ...extra, servers: { tools: server } }));
    return file;
  }

  it(`VS Code variables: \${workspaceFolder} (the folder holding .vscode) and \${env:NAME} are expanded`, async () => {
    const file = await vscodeConfig([`\${workspaceFolder}/data`, `key=\${env:MCPKIT_TEST_KEY}`]);
    process.env.MCPKIT_TEST_KEY = 'k-123';
    const run = await mcpkit('list', '--config', file);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`args=${path.dirname(path.dirname(file))}/data|key=k-123`);
    expect(run.stderr).not.toContain(`\${`);
  });

  it('VS Code variables: an unknown one is a usage error naming the variable, the file, the server and the field', async () => {
    const file = await vscodeConfig([`\${userHome}/x`]);
    const run = await mcpkit('list', '--config', file);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `Error: ${file}: server "tools", "args[2]" uses \${userHome}, which mcpkit cannot expand\nTry: Supported: \${workspaceFolder}, \${env:NAME} and \${input:ID}\n`,
    );
  });

  it(`VS Code variables: \${input:ID} off a terminal is a usage error; an input the file does not declare too`, async () => {
    const inputs = [{ type: 'promptString', id: 'token', description: 'API token', password: true }];
    const [declared, undeclared] = await Promise.all([
      vscodeConfig([`\${input:token}`], { inputs }).then((file) => mcpkit('list', '--config', file)),
      vscodeConfig([`\${input:other}`], { inputs }).then((file) => mcpkit('list', '--config', file)),
    ]);
    expect(declared.code, declared.stderr).toBe(2);
    expect(declared.stderr).toMatch(
      /server "tools", "args\[2\]" uses \$\{input:token\}, which must be asked of the user[\s\S]*Run on a terminal/,
    );
    expect(undeclared.code, undeclared.stderr).toBe(2);
    expect(undeclared.stderr).toMatch(
      /uses \$\{input:other\}, but .*mcp\.json has no "inputs" entry "other"/,
    );
  });
});

describe('mcpkit console (issue 32)', { timeout: 30_000 }, () => {
  it('refuses one-server options for a whole config file, and a config file that is not there, before starting', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-args-'));
    try {
      const file = path.join(dir, 'mcp.json');
      await writeFile(
        file,
        JSON.stringify({ mcpServers: { a: { command: 'node' }, b: { command: 'node' } } }),
      );
      const withEnv = await mcpkit('console', '--no-open', '--config', file, '-e', 'A=1');
      expect(withEnv.code).toBe(2);
      expect(withEnv.stderr).toBe(
        'Error: -e, --cwd and --header apply to one server\nTry: Add --server NAME\n',
      );
      const missing = await mcpkit('console', '--no-open', '--config', path.join(dir, 'none.json'));
      expect(missing.code).toBe(2);
      expect(missing.stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
