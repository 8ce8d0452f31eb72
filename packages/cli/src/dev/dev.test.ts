/**
 * `mcpkit dev`'s command line, how it runs a file (tsx found, Node's type stripping, the clear
 * error of neither), and which changed paths count.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../args.js';
import { CliError } from '../errors.js';
import { nodeArgsFor } from './runner.js';
import { ignoredPath } from './watch.js';

describe('mcpkit dev: command line', () => {
  it('defaults to an HTTP front on 127.0.0.1:3000 watching FILE’s directory', () => {
    expect(parseCommandLine(['dev', 'server.ts'])).toEqual({
      kind: 'dev',
      dev: { file: 'server.ts', transport: 'http', port: 3000, host: '127.0.0.1', watch: [], serverArgs: [] },
    });
  });

  it('takes --stdio, --watch (repeatable) and the server’s own arguments after --', () => {
    expect(
      parseCommandLine([
        'dev',
        'src/server.mts',
        '--stdio',
        '--watch',
        'src',
        '--watch',
        'lib',
        '--',
        '--verbose',
      ]),
    ).toMatchObject({
      dev: { file: 'src/server.mts', transport: 'stdio', watch: ['src', 'lib'], serverArgs: ['--verbose'] },
    });
  });

  it.each([
    [['dev'], /needs the server file/],
    [['dev', 'a.ts', 'b.ts'], /runs one file/],
    [['dev', 'server.py'], /runs a Node script/],
    [['dev', 'a.ts', '--stdio', '--http'], /Choose one of --stdio and --http/],
    [['dev', 'a.ts', '--stdio', '--port', '1'], /--port and --host apply to --http only/],
    [['dev', 'a.ts', '--json'], /--json does not apply to "dev"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});

describe('mcpkit dev: running a file', () => {
  const empty = mkdtemp(path.join(tmpdir(), 'mcpkit-dev-runner-'));
  afterAll(async () => rm(await empty, { recursive: true, force: true }));

  it('runs JavaScript as is', () => {
    expect(nodeArgsFor('/p/server.mjs', '/p')).toEqual([]);
  });

  it('runs TypeScript through the tsx it finds (here: the repository’s)', () => {
    const args = nodeArgsFor(path.join(process.cwd(), 'server.ts'), process.cwd());
    expect(args[0]).toBe('--import');
    expect(args[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/dist\/loader\.mjs$/);
  });

  it('with no tsx anywhere: Node’s type stripping when it has it, else "install tsx"', async () => {
    const nowhere = [path.join(await empty, 'noop.js')];
    expect(nodeArgsFor('/p/server.ts', '/p', nowhere, true)).toEqual([]);
    let error: unknown;
    try {
      nodeArgsFor('/p/server.ts', '/p', nowhere, false);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(/cannot run TypeScript \(\/p\/server\.ts\) by itself/);
    expect((error as CliError).hint).toMatch(/^install tsx: npm install -D tsx/);
  });
});

describe('mcpkit dev: which changes count', () => {
  it.each([
    ['/p/node_modules/x/index.js', true],
    ['/p/.git/index', true],
    ['/p/src/tools.ts~', true],
    ['/p/src/.tools.ts.swp', true],
    ['/p/src/.#tools.ts', true],
    ['/p/src/4913', true],
    ['/p/src/tools.ts', false],
    ['/p/src/modules/x.ts', false],
  ])('%s ignored: %s', (file, ignored) => {
    expect(ignoredPath(file)).toBe(ignored);
  });
});
