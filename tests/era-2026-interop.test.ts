/**
 * The official SDK v2 client (2.4.x) against one mcpkit server definition, in both eras at once:
 * `versionNegotiation: 'legacy'` (initialize, a session), `{ pin: '2026-07-28' }` and `'auto'`
 * (server/discover, then per-request envelopes, no session).
 */
import { execFile } from 'node:child_process';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = new URL('./fixtures/sdkV2Client.mjs', import.meta.url).pathname;

function runSdkV2(url: string, era: string): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SCRIPT, url, era], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
    });
  });
}

let served: ServedHandler;
let sessionsSeen = 0;

beforeAll(async () => {
  const server = new McpServer(
    { name: 'interop-2026', version: '1.0.0' },
    { resources: resourceSupport, prompts: promptSupport },
  );
  server.tool('who', { description: 'Names the revision of the call' }, (_args, ctx) => ctx.scope.revision);
  server.resource('test://hello', { mimeType: 'text/plain' }, () => 'Hello!');
  server.prompt('greet', { arguments: [{ name: 'name', required: true }] }, ({ name }) => `Hello ${name}`);
  server.onSessionInitialized(() => sessionsSeen++);
  served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
});

afterAll(async () => {
  await served.close();
});

describe('SDK v2 client against one mcpkit server, both eras', () => {
  it('speaks both eras at the same time', async () => {
    const [legacy, pinned, auto] = await Promise.all([
      runSdkV2(served.url, 'legacy'),
      runSdkV2(served.url, '2026-07-28'),
      runSdkV2(served.url, 'auto'),
    ]);
    // What every run reports: its era and version, the server's name, the unknown resource's URI.
    const summary = (era: string, version: string) => ({
      era,
      version,
      serverName: 'interop-2026',
      missing: 'test://missing',
    });
    expect(legacy).toMatchObject(summary('legacy', '2025-11-25'));
    expect(legacy.call).toEqual([{ type: 'text', text: '2025-11-25' }]);
    for (const modern of [pinned, auto]) {
      expect(modern).toMatchObject(summary('modern', '2026-07-28'));
      expect(modern.call).toEqual([{ type: 'text', text: '2026-07-28' }]);
      expect(modern.tools).toEqual(['who']);
      expect(modern.read).toEqual([{ uri: 'test://hello', mimeType: 'text/plain', text: 'Hello!' }]);
      expect(modern.prompt[0].content.text).toBe('Hello Ada');
    }
    // Only the legacy client opened a session.
    expect(sessionsSeen).toBe(1);
  });
});
