/**
 * `mcpkit console --config FILE` (issue 32), what a host adds: restarts started from the page and
 * restarts the host's own policy makes when a server dies, the roots the person gives the host's
 * servers, and a session recorded against a host and replayed against it. Driven in headless
 * Chromium through the page, against a host of the demo server and two small stdio servers
 * (tests/fixtures/host-upstream.mjs: one that dies on every tool call, one that reads its roots).
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  consoleBrowser,
  DEMO_ENTRY,
  hostConfigFile,
  saveSession,
  screenshot,
} from './support/consoleRun.js';
import { repoRoot } from './support/officialSchema.js';

const { open, skip } = consoleBrowser('tests/browser-console-host.test.ts');

const UPSTREAM = path.join(repoRoot, 'tests/fixtures/host-upstream.mjs');

/**
 * A tool in the list by its catalogue name and its server: `NAME SERVER` untitled, `TITLE SERVER
 * NAME` titled.
 */
function tool(page: Page, name: string, server: string) {
  return page
    .getByRole('navigation', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`^(${name} ${server}|.+ ${server} ${name})$`) });
}

/** Calls a tool of the host's catalogue (by its name there). */
async function callTool(page: Page, name: string, server: string, fill: Record<string, string> = {}) {
  await page.getByRole('tab', { name: /Tools/ }).click();
  await tool(page, name, server).click();
  for (const [label, value] of Object.entries(fill))
    await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: `Call ${name}` }).click();
}

describe.skipIf(skip)(
  'mcpkit console against a host (--config): restarts, roots, record and replay',
  { timeout: 120_000 },
  () => {
    let page: Page;
    let dir: string;

    beforeAll(async () => {
      let config: string;
      ({ dir, config } = await hostConfigFile((folder) => ({
        demo: DEMO_ENTRY,
        crashy: { command: process.execPath, args: [UPSTREAM, 'dies-on-call'] },
        rooted: { command: process.execPath, args: [UPSTREAM, 'roots', path.join(folder, 'roots.log')] },
      })));
      ({ page } = await open(['--config', config]));
      await page.getByRole('tab', { name: 'Servers' }).click();
      const servers = page.getByRole('region', { name: 'Servers' });
      for (const name of ['demo', 'crashy', 'rooted'])
        await servers
          .getByRole('row', { name: new RegExp(`^${name} `) })
          .filter({ hasText: /ready/ })
          .waitFor({ timeout: 30_000 });
    }, 60_000);

    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const changes = () =>
      page.getByRole('region', { name: 'State changes' }).locator('tbody tr').allTextContents();

    it('restarts a server from the page: restarting, then ready, its tools still in the catalogue', async () => {
      await page.getByRole('tab', { name: 'Servers' }).click();
      const servers = page.getByRole('region', { name: 'Servers' });
      const row = servers.getByRole('row', { name: /^demo / });
      expect(await row.textContent()).toMatch(/^demoready0/);
      await row.getByRole('button', { name: 'Restart demo' }).click();
      // Newest first: the restart as the person asked it, then the server ready again.
      await expect
        .poll(changes, { timeout: 30_000 })
        .toEqual(
          expect.arrayContaining([
            expect.stringMatching(/demoreadyrestartingrestart asked in the console$/),
            expect.stringMatching(/demorestartingreadystarted in \d+ ms$/),
          ]),
        );
      await expect.poll(() => row.textContent()).toMatch(/^demoready1/);
      const catalogue = page.getByRole('region', { name: 'Catalogue' });
      await expect
        .poll(() => catalogue.getByRole('row', { name: /^demo__echo / }).textContent())
        .toBe('demo__echodemoecho');
      // The restarted server answers through the host.
      await callTool(page, 'demo__echo', 'demo', { text: 'after the restart' });
      await expect.poll(() => page.locator('.result pre.text-block').textContent()).toBe('after the restart');
    });

    it('shows a server that dies restarting with the reason, then ready again, and the call it killed audited', async () => {
      await callTool(page, 'crashy__echo', 'crashy', { text: 'last words' });
      await expect
        .poll(() => page.locator('.result').textContent())
        .toMatch(/died while "tools\/call" was in flight/);
      await page.getByRole('tab', { name: 'Servers' }).click();
      // The host's own restart policy: the exit is the reason, then the server is ready again.
      await expect
        .poll(changes, { timeout: 30_000 })
        .toEqual(
          expect.arrayContaining([
            expect.stringMatching(
              /crashyreadyrestarting.*exited with code 3; last stderr output: fatal: lost my database$/,
            ),
            expect.stringMatching(/crashyrestartingreadystarted in \d+ ms$/),
          ]),
        );
      const row = page.getByRole('region', { name: 'Servers' }).getByRole('row', { name: /^crashy / });
      await expect.poll(() => row.textContent()).toMatch(/^crashyready1/);
      const decisions = page.getByRole('region', { name: 'Policy decisions' });
      await expect
        .poll(() =>
          decisions
            .getByRole('row', { name: /crashy/ })
            .first()
            .textContent(),
        )
        .toMatch(/crashytools\/callechoallowederror.*exited with code 3/);
      await screenshot(page, 'console-host-restarts');
      expect(await axeViolations(page)).toEqual([]);
    });

    it('shows a server that keeps dying failed, its open circuit the reason, and Restart brings it back', async () => {
      const servers = page.getByRole('region', { name: 'Servers' });
      const row = servers.getByRole('row', { name: /^crashy / });
      const crashes = async () =>
        (await changes()).filter((change) => /crashyready(restarting|failed)/.test(change)).length;
      // Each call kills it; the host restarts it until it has crashed 5 times in 10 s.
      for (let call = 0; call < 6 && !/failed/.test((await row.textContent()) ?? ''); call++) {
        const before = await crashes();
        await callTool(page, 'crashy__echo', 'crashy', { text: `call ${call}` });
        await page.getByRole('tab', { name: 'Servers' }).click();
        await expect.poll(crashes, { timeout: 30_000 }).toBeGreaterThan(before);
      }
      await expect
        .poll(() => row.textContent(), { timeout: 30_000 })
        .toMatch(/^crashyfailed\d+Server "crashy" crashed 5 times in 10 s; its circuit is open/);
      expect((await changes())[0]).toMatch(/crashyreadyfailedServer "crashy" crashed 5 times/);
      await row.getByRole('button', { name: 'Restart crashy' }).click();
      await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/^crashyready/);
      expect((await changes()).slice(0, 2)).toEqual([
        expect.stringMatching(/crashyrestartingreadystarted in \d+ ms$/),
        expect.stringMatching(/crashyfailedrestartingrestart asked in the console$/),
      ]);
    });

    it("lets the person choose the host's roots, which every server sees and is told of", async () => {
      await page.getByRole('tab', { name: /Roots/ }).click();
      expect(await page.getByRole('region', { name: 'Roots' }).textContent()).toContain(
        "The folders the host's servers may see",
      );
      await page.getByLabel('Folder URI').fill('file:///work/project');
      await page.getByLabel('Name', { exact: true }).fill('project');
      await page.getByRole('button', { name: 'Add root' }).click();
      await expect.poll(() => page.getByRole('tab', { name: /Roots/ }).textContent()).toBe('Roots (1)');
      expect(await axeViolations(page)).toEqual([]);
      // The server was told (notifications/roots/list_changed), and reads them with roots/list.
      await expect
        .poll(() => readFile(path.join(dir, 'roots.log'), 'utf8').catch(() => ''))
        .toMatch(/^\d+\n/);
      await callTool(page, 'roots', 'rooted');
      // Not read-only: the host's policy asks first.
      await page.getByRole('dialog').getByRole('button', { name: 'Allow for this session' }).click();
      await expect
        .poll(() => page.locator('.result pre.text-block').textContent())
        .toMatch(/^\d+ file:\/\/\/work\/project$/);
      await callTool(page, 'list_roots', 'demo');
      await expect
        .poll(() => page.locator('.result pre.text-block').textContent())
        .toBe('The client shares 1 root:\n- project: file:///work/project');
      await page.getByRole('tab', { name: /Roots/ }).click();
      await page.getByRole('button', { name: 'Remove project' }).click();
      await expect.poll(() => page.getByRole('tab', { name: /Roots/ }).textContent()).toBe('Roots (0)');
      await callTool(page, 'roots', 'rooted');
      await expect.poll(() => page.locator('.result pre.text-block').textContent()).toMatch(/^\d+ $/);
    });

    it('saves a session against a host per server, replays it through the host, and shows which answers changed', async () => {
      await callTool(page, 'add', 'demo', { a: '2', b: '3' });
      await expect.poll(() => page.locator('.result pre.text-block').textContent()).toBe('5');
      const saved = await saveSession(page);
      expect(saved).toMatchObject({
        format: 'mcpkit-console-session',
        version: 1,
        target: expect.stringMatching(/^--config /),
      });
      // Each exchange names its server, and is as that server saw it (its own tool names).
      const add = saved.exchanges.find(
        (exchange: any) => exchange.method === 'tools/call' && exchange.params.name === 'add',
      );
      expect(add).toMatchObject({ server: 'demo', params: { arguments: { a: 2, b: 3 } } });
      expect(add.result.content).toEqual([{ type: 'text', text: '5' }]);
      const stable = saved.exchanges.filter(
        (exchange: any) =>
          (exchange.method === 'tools/list' && ['demo', 'rooted'].includes(exchange.server)) ||
          (exchange.server === 'demo' &&
            exchange.method === 'tools/call' &&
            ['echo', 'add'].includes(exchange.params.name)),
      );
      expect(new Set(stable.map((exchange: any) => `${exchange.server} ${exchange.method}`))).toEqual(
        new Set(['demo tools/list', 'rooted tools/list', 'demo tools/call']),
      );
      const fixture = path.join(dir, 'session.json');
      await writeFile(fixture, JSON.stringify({ ...saved, exchanges: stable }));
      await page.getByLabel('Replay a saved session').setInputFiles(fixture);
      const replay = page.getByRole('region', { name: 'Record and replay' });
      await expect
        .poll(() => replay.getByRole('status').textContent())
        .toBe(`All ${stable.length} answers are the same as recorded.`);
      // Replayed through the host: the server's tool, under its catalogue name (demo__echo), once more.
      expect(
        await replay.getByRole('row', { name: /^tools\/call echo on demo( |$)/ }).count(),
      ).toBeGreaterThan(0);

      const edited = structuredClone(stable);
      edited.find((exchange: any) => exchange.params.name === 'add').result.content[0].text = '6';
      await writeFile(fixture, JSON.stringify({ ...saved, exchanges: edited }));
      await page.getByLabel('Replay a saved session').setInputFiles([]);
      await page.getByLabel('Replay a saved session').setInputFiles(fixture);
      await expect
        .poll(() => replay.getByRole('status').textContent())
        .toBe(`1 of ${stable.length} answers changed.`);
      expect(
        await replay.getByRole('row', { name: /^tools\/call add on demo( |$)/ }).textContent(),
      ).toContain('changed');
    });
  },
);
