import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDirectory, FileTokenCache } from './tokenCache.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('configDirectory', () => {
  it('follows XDG_CONFIG_HOME, else the platform convention', () => {
    expect(configDirectory({ XDG_CONFIG_HOME: '/x' }, 'darwin')).toBe(path.join('/x', 'mcpkit'));
    expect(configDirectory({ HOME: '/h' }, 'linux')).toBe(path.join('/h', '.config', 'mcpkit'));
    expect(configDirectory({ HOME: '/h' }, 'darwin')).toBe(
      path.join('/h', 'Library', 'Application Support', 'mcpkit'),
    );
    expect(configDirectory({ APPDATA: 'C:\\A' }, 'win32')).toBe(path.join('C:\\A', 'mcpkit'));
  });
});

describe('FileTokenCache', () => {
  it('keeps tokens per server and clients per issuer in 0600 files, and forgets a server', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-cache-'));
    dirs.push(dir);
    const cache = new FileTokenCache(path.join(dir, 'mcpkit'));
    const a = 'https://a.example/mcp';
    const b = 'https://b.example/mcp';
    await cache.saveTokens(a, { accessToken: 'at-a', issuer: 'https://as.example' });
    await cache.saveTokens(b, { accessToken: 'at-b', issuer: 'https://as.example' });
    await cache.saveClient('https://as.example', { clientId: 'registered' });
    expect(await cache.loadTokens(a)).toMatchObject({ accessToken: 'at-a' });
    expect(await cache.loadClient('https://as.example')).toEqual({ clientId: 'registered' });
    expect((await stat(cache.serverFile(a))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'mcpkit'))).mode & 0o777).toBe(0o700);

    expect(await cache.forget(a)).toBe(true);
    expect(await cache.forget(a)).toBe(false);
    expect(await cache.loadTokens(a)).toBeUndefined();
    expect(await cache.loadTokens(b)).toMatchObject({ accessToken: 'at-b' });
    expect(await cache.loadClient('https://as.example')).toEqual({ clientId: 'registered' });
    // No temporary file is left behind by the atomic writes.
    const names = await readdir(path.dirname(cache.serverFile(b)));
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
