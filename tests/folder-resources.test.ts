/**
 * Issue 21 §3, what a served folder sends: UTF-8 text as `text` with its MIME type and anything
 * else as a `blob` (never text with replacement characters), a size cap with a clear error, a
 * listing that skips what cannot be read, roots, watching with coalesced notifications, and the
 * check of the file actually opened while a directory is swapped for a link. Clients are
 * `McpClient`s over Streamable HTTP on 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { McpError } from '@mcpkit/core';
import { type FolderOptions, serveFolder } from '@mcpkit/node/folder';
import { serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWithoutProc } from '../packages/node/src/folder/open.js';
import { eventually } from './support/eventually.js';
import { type FolderTree, folderTree, SECRET } from './support/folderTree.js';

let tree: FolderTree;
const cleanups: (() => unknown)[] = [];
beforeEach(() => {
  tree = folderTree();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  tree.remove();
});

/** A server serving `tree.data`, and a connected client. */
async function connect(
  options: FolderOptions = {},
  clientOptions: ConstructorParameters<typeof McpClient>[1] = {},
) {
  const server = new McpServer({ name: 'folder', version: '1.0.0' }, { resources: resourceSupport });
  const folder = serveFolder(server, tree.data, options);
  const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  // '2025': the tests assert 2025-11-25's -32002 for a file that is not there (2026-07-28 says
  // -32602) and roots re-read on notifications/roots/list_changed, which needs a session.
  const client = new McpClient(
    { name: 'folder-client', version: '1.0.0' },
    { protocolEra: '2025', ...clientOptions },
  );
  await client.connect(new StreamableHttpClientTransport(new URL(served.url)));
  cleanups.push(
    () => served.close(),
    () => server.close(),
    () => folder.close(),
    () => client.close(),
  );
  return { client, folder, uri: (path: string) => `${folder.uri}/${path}` };
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

describe('content rules', () => {
  it('sends valid UTF-8 as text with its type, and everything else as a blob', async () => {
    const files: Record<string, Uint8Array | string> = {
      'notes.md': '# Héllo ✓ 日本\n',
      'main.ts': 'export const x = 1;\n',
      README: 'no extension\n',
      'empty.txt': '',
      'latin1.txt': new Uint8Array([0x68, 0xe9, 0x6c, 0x6c, 0x6f]),
      'truncated.txt': new Uint8Array([0x61, 0xe2, 0x9c]),
      'surrogate.txt': new Uint8Array([0xed, 0xa0, 0x80]),
      'overlong.txt': new Uint8Array([0xc0, 0xae]),
      'utf16.txt': Buffer.from('hi', 'utf16le'),
      'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      'ascii.png': 'abc',
      'data.bin': new Uint8Array([1, 2, 3]),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(tree.data, name), bytes);
    const { client, uri } = await connect();
    const read = async (name: string) => (await client.readResource(uri(name))).contents;
    expect(await read('notes.md')).toEqual([
      { uri: uri('notes.md'), mimeType: 'text/markdown', text: '# Héllo ✓ 日本\n' },
    ]);
    expect(await read('main.ts')).toEqual([
      { uri: uri('main.ts'), mimeType: 'text/x-typescript', text: 'export const x = 1;\n' },
    ]);
    expect(await read('README')).toEqual([
      { uri: uri('README'), mimeType: 'text/plain', text: 'no extension\n' },
    ]);
    expect(await read('empty.txt')).toEqual([{ uri: uri('empty.txt'), mimeType: 'text/plain', text: '' }]);
    for (const name of ['latin1.txt', 'truncated.txt', 'surrogate.txt', 'overlong.txt', 'utf16.txt']) {
      expect(await read(name), name).toEqual([
        { uri: uri(name), mimeType: 'text/plain', blob: base64(files[name]!) },
      ]);
    }
    expect(await read('logo.png')).toEqual([
      { uri: uri('logo.png'), mimeType: 'image/png', blob: base64(files['logo.png']!) },
    ]);
    expect(await read('ascii.png')).toEqual([
      { uri: uri('ascii.png'), mimeType: 'image/png', blob: base64('abc') },
    ]);
    expect(await read('data.bin')).toEqual([
      { uri: uri('data.bin'), mimeType: 'application/octet-stream', blob: base64(files['data.bin']!) },
    ]);
  });

  it('caps the size of a read with a clear error, and does not list what it would refuse', async () => {
    writeFileSync(join(tree.data, 'fits.txt'), 'x'.repeat(32));
    writeFileSync(join(tree.data, 'big.txt'), 'x'.repeat(33));
    const { client, uri } = await connect({ maxReadBytes: 32 });
    expect((await client.readResource(uri('fits.txt'))).contents[0]).toMatchObject({ text: 'x'.repeat(32) });
    const error = await refusal(client.readResource(uri('big.txt')));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      `Resource ${uri('big.txt')} is larger than 32 bytes, the most this server reads at once`,
    );
    expect(error.data).toEqual({ uri: uri('big.txt'), maxReadBytes: 32 });
    const names = (await client.resources()).map((resource) => resource.name);
    expect(names).toContain('fits.txt');
    expect(names).not.toContain('big.txt');
  });

  it('skips what cannot be read: FIFOs, sockets, dangling links; reading them is "not found" and never blocks', async () => {
    const fifo = spawnSync('mkfifo', [join(tree.data, 'pipe')]);
    expect(fifo.status).toBe(0);
    const socketServer = createServer();
    await new Promise<void>((resolve) => socketServer.listen(join(tree.data, 'socket'), resolve));
    cleanups.push(() => new Promise((resolve) => socketServer.close(resolve)));
    symlinkSync('no-such-file', join(tree.data, 'dangling'));
    const { client, uri } = await connect();
    const listed = (await client.resources()).map((resource) => resource.name);
    expect(listed).toEqual(['hello.txt', 'link-inside', 'dir-link-inside/inner.md', 'sub/inner.md']);
    for (const name of ['pipe', 'socket', 'dangling']) {
      const error = await refusal(client.readResource(uri(name)));
      expect(error.code, name).toBe(-32002);
    }
  });

  it('serves hidden files only when asked to', async () => {
    const { client, uri } = await connect({ hidden: true });
    expect((await client.readResource(uri('.env'))).contents[0]).toMatchObject({
      text: 'PASSWORD=hunter2\n',
    });
    expect((await client.resources()).map((resource) => resource.name)).toContain('.env');
  });

  it('lists each file with its URI, name, type and size', async () => {
    const { client, uri } = await connect();
    const [first] = await client.resources();
    expect(first).toEqual({ uri: uri('hello.txt'), name: 'hello.txt', mimeType: 'text/plain', size: 18 });
  });

  it('refuses unknown options and a path that is not a directory', () => {
    const server = new McpServer({ name: 'x', version: '1' }, { resources: resourceSupport });
    expect(() => serveFolder(server, tree.data, { maxReadByte: 1 } as FolderOptions)).toThrow(
      'serveFolder: unknown option "maxReadByte"',
    );
    expect(() => serveFolder(server, tree.data, { roots: 'strict' as 'limit' })).toThrow(`"roots" must be`);
    expect(() => serveFolder(server, tree.data, { maxReadBytes: -1 })).toThrow('"maxReadBytes" must be');
    expect(() => serveFolder(server, join(tree.data, 'hello.txt'))).toThrow('is not a directory');
    expect(() => serveFolder(server, join(tree.data, 'missing'))).toThrow('does not exist');
  });
});

describe('roots', () => {
  const rootOf = (path: string) => ({ uri: pathToFileURL(path).href });

  it("limits reads, listing and completion to the client's roots, and re-reads them on roots/list_changed", async () => {
    const { client, uri, folder } = await connect(
      { roots: 'limit' },
      { roots: [rootOf(join(tree.data, 'sub'))] },
    );
    expect((await client.readResource(uri('sub/inner.md'))).contents[0]).toMatchObject({ text: '# inner\n' });
    expect((await refusal(client.readResource(uri('hello.txt')))).code).toBe(-32002);
    expect((await client.resources()).map((resource) => resource.name)).toEqual([
      'link-inside',
      'dir-link-inside/inner.md',
      'sub/inner.md',
    ]);
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: folder.uriTemplate },
      argument: { name: 'path', value: '' },
    });
    // self/ is the folder itself: a directory that leads to the root, so completion offers it.
    expect(completion.completion.values).toEqual(['dir-link-inside/', 'link-inside', 'self/', 'sub/']);

    await client.setRoots([rootOf(tree.data)]);
    let read: unknown;
    await eventually(() => {
      void client.readResource(uri('hello.txt')).then(
        (result) => (read = result),
        () => {},
      );
      return read !== undefined;
    }, 'hello.txt readable once the roots changed');
    expect(read).toMatchObject({ contents: [{ text: 'hello from inside\n' }] });
  });

  it("'require' shows nothing to a client without roots; 'limit' shows it everything", async () => {
    const required = await connect({ roots: 'require' });
    expect(await required.client.resources()).toEqual([]);
    expect((await refusal(required.client.readResource(required.uri('hello.txt')))).code).toBe(-32002);
    const limited = await connect({ roots: 'limit' });
    expect((await limited.client.readResource(limited.uri('hello.txt'))).contents[0]).toMatchObject({
      text: 'hello from inside\n',
    });
  });
});

describe('watching', () => {
  it('sends one resources/updated per burst to subscribers, and resources/list_changed when files come and go', async () => {
    const { client, uri, folder } = await connect({ watch: true, coalesceMs: 200 });
    await folder.watching;
    const updates: string[] = [];
    let listChanges = 0;
    client.onResourceUpdated((updated) => updates.push(updated));
    client.onListChanged('resources', () => listChanges++);
    await client.subscribeResource(uri('hello.txt'));
    await client.subscribeResource(uri('sub/inner.md'));
    await client.subscribeResource(uri('.env')); // accepted (the template matches), never notified
    await client.resources(); // the list is cached now: a change must invalidate it

    // A burst: 20 writes with no event-loop turn between them, so every event lands in one window.
    for (let i = 0; i < 20; i++) writeFileSync(join(tree.data, 'hello.txt'), `version ${i}\n`);
    writeFileSync(join(tree.data, '.env'), 'PASSWORD=changed\n');
    await eventually(() => updates.includes(uri('hello.txt')), 'the update of hello.txt');
    // A second burst, on another file; updates arrive in order on one stream, so once this one is
    // here, a split first burst would have shown as a second update of hello.txt.
    writeFileSync(join(tree.data, 'sub', 'inner.md'), '# changed\n');
    await eventually(() => updates.includes(uri('sub/inner.md')), 'the update of sub/inner.md');
    expect(updates.filter((updated) => updated === uri('hello.txt'))).toHaveLength(1);
    expect(updates).not.toContain(uri('.env'));

    mkdirSync(join(tree.data, 'new'));
    for (let i = 0; i < 20; i++) writeFileSync(join(tree.data, 'new', `file-${i}.txt`), 'new\n');
    await eventually(() => listChanges > 0, 'resources/list_changed');
    // Nobody subscribed to the new files: no update names them.
    expect(updates.every((updated) => updated === uri('hello.txt') || updated === uri('sub/inner.md'))).toBe(
      true,
    );
    const names = (await client.resources()).map((resource) => resource.name);
    expect(names).toContain('new/file-19.txt');
  });
});

describe.each([
  ['asking the kernel (/proc/self/fd)', false],
  ['without /proc (as on macOS and Windows)', true],
])('the file actually opened, %s', (_name, withoutProc) => {
  beforeEach(() => checkWithoutProc(withoutProc));
  afterEach(() => checkWithoutProc(false));

  it('never reads outside while a directory inside is swapped for a link to outside, over and over', async () => {
    mkdirSync(join(tree.data, 'swap'));
    writeFileSync(join(tree.data, 'swap', 'f.txt'), 'inside f\n');
    writeFileSync(join(tree.outside, 'f.txt'), `${SECRET} f\n`);
    const { client, uri } = await connect();
    // The swapper runs in its own process, so its renames interleave with the server's realpath,
    // open and fstat on the thread pool.
    const script = `
      const fs = require('node:fs');
      const [dir, real, target] = process.argv.slice(1);
      for (let i = 0; i < 3000; i++) {
        fs.renameSync(dir, real);
        fs.symlinkSync(target, dir);
        fs.unlinkSync(dir);
        fs.renameSync(real, dir);
      }`;
    const swapper = spawn(process.execPath, [
      '-e',
      script,
      join(tree.data, 'swap'),
      join(tree.data, 'swap-real'),
      tree.outside,
    ]);
    const done = new Promise<number | null>((resolve) => swapper.on('exit', resolve));
    let finished = false;
    void done.then(() => (finished = true));
    let reads = 0;
    let served = 0;
    while (!finished) {
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => client.readResource(uri('swap/f.txt'))),
      );
      for (const result of results) {
        reads++;
        expect(JSON.stringify(result)).not.toContain(SECRET);
        if (result.status === 'fulfilled') {
          served++;
          expect(result.value.contents[0]).toMatchObject({ text: 'inside f\n' });
        } else {
          expect((result.reason as McpError).code).toBe(-32002);
        }
        expect(JSON.stringify(result)).not.toContain(SECRET);
      }
    }
    expect(await done).toBe(0);
    expect(reads).toBeGreaterThan(0);
    expect(served).toBeGreaterThan(0); // reads succeed whenever the directory is back in place
  }, 60_000);
});
