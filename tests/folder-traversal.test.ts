/**
 * Issue 21 §3: nothing outside a served folder can be read, listed or completed, whatever the URI.
 * One table of attacks, each sent as `resources/read` over stdio and over Streamable HTTP to a
 * server that serves `data/` of the scratch tree (tests/support/folderTree.ts). A refusal is the
 * "Resource not found" (-32002) a missing file gets, word for word, so it never tells whether the
 * outside path exists; URIs the server's own URI check refuses first (a raw backslash) get -32602.
 */
import { serveFolder } from '@mcpkit/node/folder';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FolderTree,
  folderTree,
  overHttp,
  overStdio,
  SECRET,
  type Send,
  session,
} from './support/folderTree.js';

type Expect = 'not-found' | 'invalid-uri';
/** name, URI built from the folder's URI and the tree, expected refusal. */
type Case = readonly [string, (root: string, tree: FolderTree) => string, Expect?];

const CASES: readonly Case[] = [
  ['".." segment', (root) => `${root}/../outside/secret.txt`],
  ['".." after a real directory', (root) => `${root}/sub/../../outside/secret.txt`],
  ['"." segment', (root) => `${root}/./hello.txt`],
  ['percent-encoded dots %2e%2e', (root) => `${root}/%2e%2e/outside/secret.txt`],
  ['percent-encoded dots %2E%2E', (root) => `${root}/%2E%2E/outside/secret.txt`],
  ['half-encoded dots .%2e', (root) => `${root}/.%2e/outside/secret.txt`],
  ['encoded slash %2f', (root) => `${root}/..%2foutside%2fsecret.txt`],
  ['encoded slash %2F', (root) => `${root}/..%2Foutside%2Fsecret.txt`],
  ['encoded backslash %5c', (root) => `${root}/..%5coutside%5csecret.txt`],
  ['encoded backslash %5C', (root) => `${root}/..%5C..%5Coutside%5Csecret.txt`],
  ['double-encoded dots %252e', (root) => `${root}/%252e%252e/outside/secret.txt`],
  ['double-encoded slash %252f', (root) => `${root}/..%252foutside%252fsecret.txt`],
  ['double-encoded backslash %255c', (root) => `${root}/..%255coutside%255csecret.txt`],
  ['raw backslash', (root) => `${root}/..\\outside\\secret.txt`, 'invalid-uri'],
  ['overlong dot %c0%ae', (root) => `${root}/%c0%ae%c0%ae/outside/secret.txt`],
  ['overlong dot, 3 bytes %e0%80%ae', (root) => `${root}/%e0%80%ae%e0%80%ae/outside/secret.txt`],
  ['overlong slash %c0%af', (root) => `${root}/..%c0%afoutside%c0%afsecret.txt`],
  ['overlong backslash %c1%9c', (root) => `${root}/..%c1%9coutside%c1%9csecret.txt`],
  ['fullwidth dots, raw', (root) => `${root}/\uff0e\uff0e/outside/secret.txt`],
  ['fullwidth dots, encoded', (root) => `${root}/%EF%BC%8E%EF%BC%8E/outside/secret.txt`],
  ['fullwidth solidus', (root) => `${root}/..%EF%BC%8Foutside%EF%BC%8Fsecret.txt`],
  ['fullwidth reverse solidus', (root) => `${root}/..\uff3coutside\uff3csecret.txt`],
  ['one-dot leader and two-dot leader', (root) => `${root}/\u2025/outside/secret.txt`],
  ['NUL byte in a name', (root) => `${root}/hello.txt%00.png`],
  ['NUL byte after ..', (root) => `${root}/..%00/outside/secret.txt`],
  ['control character', (root) => `${root}/hello%0a.txt`],
  ['absolute path outside', (_root, tree) => `file://${tree.outside}/secret.txt`],
  ['absolute path after the folder (empty segment)', (root, tree) => `${root}/${tree.outside}/secret.txt`],
  ['encoded absolute path', (root, tree) => `${root}/${encodeURIComponent(`${tree.outside}/secret.txt`)}`],
  ['another host', (root) => root.replace('file://', 'file://evil.example') + '/hello.txt'],
  ['localhost spelled out', (root) => root.replace('file://', 'file://localhost') + '/hello.txt'],
  ['credentials in the authority', (root) => root.replace('file://', 'file://user@') + '/hello.txt'],
  ['another scheme', (root) => root.replace('file://', 'http://') + '/hello.txt'],
  ['sibling whose name starts with the folder name', (root) => `${root}-evil/secret.txt`],
  ['sibling through ..', (root) => `${root}/../data-evil/secret.txt`],
  ['symlink to an outside file', (root) => `${root}/escape`],
  ['symlink to an outside file, absolute target', (root) => `${root}/escape-abs`],
  ['symlink to an outside directory', (root) => `${root}/escape-dir/secret.txt`],
  ['symlink to the prefix-sharing sibling', (root) => `${root}/sneaky/secret.txt`],
  ['symlink whose target climbs out through a real directory', (root) => `${root}/hop/secret.txt`],
  ['hidden file', (root) => `${root}/.env`],
  ['a link to itself (ELOOP)', (root) => `${root}/loop`],
  ['the scheme in capitals', (root) => `FILE${root.slice(4)}/hello.txt`],
  [
    'another spelling of the folder (an escaped letter)',
    (root) => `${root.slice(0, -1)}%${root.charCodeAt(root.length - 1).toString(16)}/hello.txt`,
  ],
  ['the folder itself', (root) => root],
  ['the folder with a trailing slash', (root) => `${root}/`],
  ['a directory', (root) => `${root}/sub`],
  ['a query', (root) => `${root}/hello.txt?x=../../outside/secret.txt`],
  ['a fragment', (root) => `${root}/hello.txt#/../../outside/secret.txt`],
  ['a missing file outside (existence must not show)', (root) => `${root}/../outside/missing.txt`],
  ['a missing file inside', (root) => `${root}/missing.txt`],
];

/** Files inside that must read, through plain names and links that stay inside. */
const ALLOWED: readonly [string, string, string][] = [
  ['hello.txt', 'hello from inside\n', 'text/plain'],
  ['sub/inner.md', '# inner\n', 'text/markdown'],
  ['link-inside', '# inner\n', 'text/markdown'],
  ['dir-link-inside/inner.md', '# inner\n', 'text/markdown'],
  ['self/self/sub/inner.md', '# inner\n', 'text/markdown'],
];

let tree: FolderTree;
beforeAll(() => {
  tree = folderTree();
});
afterAll(() => tree.remove());

function folderServer(): { server: McpServer; root: string } {
  const server = new McpServer(
    { name: 'folder', version: '1.0.0' },
    { pageSize: 3, resources: resourceSupport },
  );
  const served = serveFolder(server, tree.data);
  return { server, root: served.uri };
}

const TRANSPORTS: readonly [
  string,
  (server: McpServer) => Promise<{ send: Send; close(): Promise<void> }>,
][] = [
  ['stdio', async (server) => ({ send: overStdio(server), close: () => server.close() })],
  [
    'Streamable HTTP',
    async (server) => {
      const { send, served } = await overHttp(server);
      const close = async () => {
        await served.close();
        await server.close();
      };
      return { send, close };
    },
  ],
];

describe.each(TRANSPORTS)('a served folder over %s', (_name, connect) => {
  let request: Awaited<ReturnType<typeof session>>;
  let root: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const built = folderServer();
    root = built.root;
    const connected = await connect(built.server);
    close = connected.close;
    request = await session(connected.send);
  });
  afterAll(() => close());

  const rows = CASES.map(([name, build, expected = 'not-found']) => ({ name, build, expected }));
  it.each(rows)('refuses $name', async ({ build, expected }) => {
    const uri = build(root, tree);
    const response = await request('resources/read', { uri });
    expect(JSON.stringify(response)).not.toContain(SECRET);
    expect(response.result).toBeUndefined();
    if (expected === 'not-found') {
      // Exactly what a missing file gets: nothing tells "outside" from "absent".
      expect(response.error).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
    } else {
      expect(response.error.code).toBe(-32602);
      expect(response.error.message).toMatch(/uri/i);
    }
  });

  it.each(ALLOWED)('reads %s', async (path, text, mimeType) => {
    const uri = `${root}/${path}`;
    const response = await request('resources/read', { uri });
    expect(response.result).toEqual({ contents: [{ uri, mimeType, text }] });
  });

  it('lists, page by page, only what it would read, and nothing outside', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await request('resources/list', cursor === undefined ? {} : { cursor });
      for (const resource of response.result.resources) {
        expect(resource.uri.startsWith(`${root}/`)).toBe(true);
        names.push(resource.name);
      }
      cursor = response.result.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(2);
    expect(names).toEqual(['hello.txt', 'link-inside', 'dir-link-inside/inner.md', 'sub/inner.md']);
  });

  it('completes path segments, never outside', async () => {
    const complete = async (value: string) => {
      const ref = { type: 'ref/resource', uri: `${root}/{+path}` };
      const response = await request('completion/complete', { ref, argument: { name: 'path', value } });
      return response.result.completion.values as string[];
    };
    expect(await complete('')).toEqual(['dir-link-inside/', 'hello.txt', 'link-inside', 'self/', 'sub/']);
    expect(await complete('su')).toEqual(['sub/']);
    expect(await complete('sub/in')).toEqual(['sub/inner.md']);
    expect(await complete('dir-link-inside/')).toEqual(['dir-link-inside/inner.md']);
    for (const value of [
      '../',
      '../outside/',
      'escape-dir/',
      'sneaky/',
      'hop/',
      '..%2f',
      '.env',
      '/',
      `${tree.outside}/`,
    ]) {
      expect(await complete(value), value).toEqual([]);
    }
  });

  it('answers subscribe for a URI outside as for a missing one: no update will ever name it', async () => {
    const outside = await request('resources/subscribe', { uri: `${root}/../outside/secret.txt` });
    const missing = await request('resources/subscribe', { uri: `${root}/missing.txt` });
    expect(outside.result).toEqual({});
    expect(missing.result).toEqual({});
  });
});
