/**
 * A scratch tree for the folder-resource tests, and raw JSON-RPC senders over real transports.
 *
 * ```
 * base/
 *   data/                     the served folder
 *     hello.txt  sub/inner.md  .env  (hidden)
 *     link-inside -> sub/inner.md        dir-link-inside -> sub
 *     escape -> ../outside/secret.txt    escape-dir -> ../outside
 *     escape-abs -> <base>/outside/secret.txt
 *     sneaky -> ../data-evil             hop -> sub/../../outside (a link whose target climbs out)
 *     self -> .  (a cycle)               loop -> loop (a link to itself)
 *   data-evil/secret.txt      a sibling whose name starts with the folder's (CVE-2025-53110)
 *   outside/secret.txt        outside the folder
 * ```
 * Every file outside the folder holds {@link SECRET}; no file inside does.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Method } from '@mcpkit/core';
import { type Json, REVISION, type Send } from './rawJsonRpc.js';

export { overHttp, overStdio, type Send } from './rawJsonRpc.js';

/** The marker every file outside the served folder holds. */
export const SECRET = 'TOP-SECRET';

export interface FolderTree {
  /** The real path of the scratch directory. */
  readonly base: string;
  /** The served folder (a real path). */
  readonly data: string;
  readonly outside: string;
  remove(): void;
}

/** Creates the tree of the module comment in a new temporary directory. */
export function folderTree(): FolderTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-folder-')));
  const data = join(base, 'data');
  const outside = join(base, 'outside');
  mkdirSync(join(data, 'sub'), { recursive: true });
  mkdirSync(outside);
  mkdirSync(join(base, 'data-evil'));
  writeFileSync(join(data, 'hello.txt'), 'hello from inside\n');
  writeFileSync(join(data, 'sub', 'inner.md'), '# inner\n');
  writeFileSync(join(data, '.env'), 'PASSWORD=hunter2\n');
  writeFileSync(join(outside, 'secret.txt'), `${SECRET} outside\n`);
  writeFileSync(join(base, 'data-evil', 'secret.txt'), `${SECRET} sibling\n`);
  symlinkSync('sub/inner.md', join(data, 'link-inside'));
  symlinkSync('sub', join(data, 'dir-link-inside'));
  symlinkSync('../outside/secret.txt', join(data, 'escape'));
  symlinkSync('../outside', join(data, 'escape-dir'));
  symlinkSync(join(outside, 'secret.txt'), join(data, 'escape-abs'));
  symlinkSync('../data-evil', join(data, 'sneaky'));
  symlinkSync('sub/../../outside', join(data, 'hop'));
  symlinkSync('.', join(data, 'self'));
  symlinkSync('loop', join(data, 'loop'));
  return { base, data, outside, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** Initializes a session and returns a `request(method, params)` that resolves with the response. */
export async function session(send: Send): Promise<(method: string, params: Json) => Promise<Json>> {
  let id = 0;
  const params = {
    protocolVersion: REVISION,
    capabilities: {},
    clientInfo: { name: 'folder-tests', version: '1' },
  };
  const init = await send({ jsonrpc: '2.0', id: ++id, method: Method.Initialize, params });
  if (!init?.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return async (method, params) => (await send({ jsonrpc: '2.0', id: ++id, method, params }))!;
}
