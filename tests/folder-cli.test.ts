/**
 * `mcpkit serve --folder DIR` (issue 21 §3): the demo server serves DIR read-only next to its own
 * resources; the flag repeats. The CLI's client verbs run in this process (runCliInProcess) against
 * `mcpkit serve --stdio --folder …` started from source as a real child process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FolderTree, folderTree, SECRET } from './support/folderTree.js';
import { runCliInProcess } from './support/inProcessCli.js';

const SERVE = [
  process.execPath,
  '--import',
  './conformance/register-ts.mjs',
  'packages/cli/src/main.ts',
  'serve',
  '--stdio',
];

let tree: FolderTree;
let second: string;
beforeAll(() => {
  tree = folderTree();
  second = join(tree.base, 'second folder');
  mkdirSync(second);
  writeFileSync(join(second, 'notes.md'), '# second\n');
});
afterAll(() => tree.remove());

const folders = () => ['--folder', tree.data, '--folder', second];
const fileUri = (path: string) => pathToFileURL(path).href;

describe('mcpkit serve --folder', () => {
  it("lists the folders' files next to the demo's own resources", async () => {
    const run = await runCliInProcess(['list', 'resources', '--json', '--', ...SERVE, ...folders()]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { resources } = JSON.parse(run.stdout) as { resources: { uri: string }[] };
    const uris = resources.map((resource) => resource.uri);
    expect(uris.some((uri) => !uri.startsWith('file:'))).toBe(true); // the demo's own
    expect(uris).toContain(fileUri(join(tree.data, 'hello.txt')));
    expect(uris).toContain(fileUri(join(tree.data, 'sub', 'inner.md')));
    expect(uris).toContain(fileUri(join(second, 'notes.md')));
    expect(run.stdout).not.toContain('escape');
  }, 60_000);

  it('reads a file of each folder, and refuses a path out of it as not found', async () => {
    const first = await runCliInProcess([
      'read',
      fileUri(join(tree.data, 'hello.txt')),
      '--',
      ...SERVE,
      ...folders(),
    ]);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining('hello from inside') });
    const other = await runCliInProcess([
      'read',
      fileUri(join(second, 'notes.md')),
      '--',
      ...SERVE,
      ...folders(),
    ]);
    expect(other).toMatchObject({ code: 0, stdout: expect.stringContaining('# second') });
    const outward = `${fileUri(tree.data)}/escape`;
    const refused = await runCliInProcess(['read', outward, '--', ...SERVE, ...folders()]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not found/i);
    expect(refused.stdout + refused.stderr).not.toContain(SECRET);
  }, 60_000);

  it('says which --folder it cannot serve', async () => {
    const run = await runCliInProcess(['serve', '--stdio', '--folder', join(tree.base, 'missing')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Cannot serve --folder ${join(tree.base, 'missing')}`);
    expect(run.stderr).toContain('does not exist');
  });
});
