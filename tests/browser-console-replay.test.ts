import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CLI, consoleBrowser, replayCli, screenshot } from './support/consoleRun.js';

const { open, skip } = consoleBrowser('tests/browser-console-replay.test.ts');

const FIXTURE = [process.execPath, ...CLI.slice(0, 2), 'tests/fixtures/replay-server.ts'];

/** A button of a panel's list, by the start of its name. */
function listItem(page: Page, list: string, name: RegExp) {
  return page.getByRole('navigation', { name: list }).getByRole('button', { name }).first();
}

/** Clicks `button` and reads the file the page downloads. */
async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFile((await file.path())!, 'utf8');
}

describe.skipIf(skip)(
  'record in the console, replay from the command line and in the page',
  { timeout: 180_000 },
  () => {
    let page: Page;
    let dir: string;
    let sessionFile: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-replay-'));
      sessionFile = path.join(dir, 'session.json');
      ({ page } = await open(['--', ...FIXTURE]));
    }, 60_000);

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('records a session through the page: tool calls, a read, a prompt, the lists', async () => {
      // The tools come page by page: two, then the third on "More tools".
      await expect.poll(() => page.getByRole('tab', { name: /Tools/ }).textContent()).toBe('Tools (2+)');
      expect(await listItem(page, 'Tools', /^add/).count()).toBe(0);
      await page.getByRole('button', { name: 'More tools' }).click();
      await expect.poll(() => page.getByRole('tab', { name: /Tools/ }).textContent()).toBe('Tools (3)');
      expect(await page.getByRole('button', { name: 'More tools' }).count()).toBe(0);
      for (const [name, fill] of [
        ['echo', 'hi'],
        ['clock', undefined],
        ['add', undefined],
      ] as const) {
        await listItem(page, 'Tools', new RegExp(`^${name}`)).click();
        if (fill) await page.getByLabel('text', { exact: true }).fill(fill);
        await page.getByRole('button', { name: `Call ${name}` }).click();
        await page.locator('.result').waitFor();
      }
      await page.getByRole('tab', { name: /Resources/ }).click();
      await listItem(page, 'Resources', /replay:\/\/readme/).click();
      await expect.poll(() => page.locator('.detail').textContent()).toContain('Read me');
      await page.getByRole('tab', { name: /Prompts/ }).click();
      await page.getByLabel('name', { exact: true }).fill('Ada');
      await page.getByRole('button', { name: 'Get greet' }).click();
      await expect.poll(() => page.locator('.result').textContent()).toContain('Hello Ada');

      await page.getByRole('tab', { name: /Protocol log/ }).click();
      const saved = JSON.parse(await download(page, 'Save session'));
      expect(
        saved.exchanges.map(
          (exchange: any) => `${exchange.method} ${exchange.params.name ?? exchange.params.uri ?? ''}`,
        ),
      ).toEqual(
        expect.arrayContaining([
          'tools/list ',
          'tools/call echo',
          'tools/call clock',
          'tools/call add',
          'resources/read replay://readme',
          'prompts/get greet',
        ]),
      );
      await writeFile(sessionFile, JSON.stringify(saved));
    });

    it('exports the protocol log as JSON Lines: all of it, or what the filters show', async () => {
      const all = (await download(page, 'Export all'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(all.length).toBeGreaterThan(10);
      expect(await page.getByRole('tab', { name: /Protocol log/ }).textContent()).toBe(
        `Protocol log (${all.length})`,
      );
      expect(Object.keys(all[0])).toEqual(expect.arrayContaining(['seq', 'at', 'dir', 'size', 'message']));
      expect(all.some((entry) => entry.message?.params?.name === 'greet')).toBe(true);
      await page.getByLabel('Filter').fill('Hello Ada');
      const shown = (await download(page, 'Export shown'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(shown.length).toBe(1);
      expect(shown[0]).toMatchObject({ dir: 'in' });
      expect(JSON.stringify(shown[0].message)).toContain('Hello Ada');
      await page.getByLabel('Filter').fill('');
    });

    it('mcpkit replay: exit 6 naming the field that differs on every run, 0 once it is ignored', async () => {
      const changed = await replayCli([sessionFile, '--', ...FIXTURE]);
      expect(changed.stderr).toBe('');
      expect(changed.code).toBe(6);
      expect(changed.stdout).toMatch(/^changed {2}tools\/call clock\n {9}~ structuredContent\.at: "/m);
      expect(changed.stdout).toMatch(/^same {5}tools\/call echo$/m);
      const ignoring = await replayCli([sessionFile, '--ignore', 'structuredContent.at', '--', ...FIXTURE]);
      expect(ignoring.code).toBe(0);
      expect(ignoring.stdout).toMatch(/^same {5}tools\/call clock \(1 ignored\)$/m);
      expect(ignoring.stdout).toMatch(/^All \d+ answers are the same as recorded\.$/m);
    });

    it('mcpkit replay --json against a changed server: exit 6, each field with its old and new value', async () => {
      const { code, stdout } = await replayCli([
        sessionFile,
        '--json',
        '--ignore',
        'structuredContent.at',
        '-e',
        'REPLAY_VARIANT=after',
        '--',
        ...FIXTURE,
      ]);
      expect(code).toBe(6);
      const report = JSON.parse(stdout);
      expect(report).toMatchObject({ same: false, changed: 2, ignore: ['structuredContent.at'] });
      const differences = report.exchanges.flatMap((exchange: any) => exchange.differences);
      expect(differences).toEqual([
        { change: 'changed', path: 'tools.add.description', before: 'Adds', after: 'Adds two numbers' },
        { change: 'added', path: 'tools.subtract', after: expect.objectContaining({ name: 'subtract' }) },
        { change: 'changed', path: 'content[0].text', before: 'hi', after: 'hi!' },
      ]);
    });

    it('mcpkit replay refuses a file that is not a saved session (exit 2) and needs a target', async () => {
      const notSession = path.join(dir, 'other.json');
      await writeFile(notSession, '{"hello":"world"}');
      const refused = await replayCli([notSession, '--', ...FIXTURE]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Not a saved console session');
      const noTarget = await replayCli([sessionFile]);
      expect(noTarget.code).toBe(2);
      expect(noTarget.stderr).toContain('needs the saved session and a server');
    });

    it('replays in the page against the changed server, field by field', async () => {
      const { page: changedPage } = await open(['-e', 'REPLAY_VARIANT=after', '--', ...FIXTURE]);
      await changedPage.getByRole('tab', { name: /Protocol log/ }).click();
      await changedPage.getByLabel('Ignore paths (comma-separated)').fill('structuredContent.at');
      await changedPage.getByLabel('Replay a saved session').setInputFiles(sessionFile);
      const region = changedPage.getByRole('region', { name: 'Record and replay' });
      await expect
        .poll(() => region.getByRole('status').textContent())
        .toMatch(/^2 of \d+ answers changed\.$/);
      await region.getByText('changed: content[0].text').click();
      const row = region.locator('table.diff tbody tr').filter({ hasText: 'content[0].text' });
      expect(await row.locator('td').allTextContents()).toEqual([
        'content[0].text',
        'changed',
        '"hi"',
        '"hi!"',
      ]);
      await region.getByText('changed: tools.add.description, tools.subtract').click();
      expect(await region.locator('tr.diff-added td').first().textContent()).toBe('tools.subtract');
      await screenshot(changedPage, 'console-replay-diff');
      expect(await axeViolations(changedPage)).toEqual([]);
      await changedPage.close();
    });

    it('compares a read, a prompt and the lists on both revisions, with the diff', async () => {
      await page.getByRole('tab', { name: /Resources/ }).click();
      await listItem(page, 'Resources', /replay:\/\/revision/).click();
      await page.getByRole('button', { name: 'Read on both revisions' }).click();
      const both = page.getByRole('region', { name: 'Both revisions', exact: true });
      await expect
        .poll(() => both.getByRole('status').textContent())
        .toBe('The results differ (1 difference).');
      expect(await both.locator('table.diff tbody tr td').allTextContents()).toEqual([
        'contents[0].text',
        'changed',
        '"2025-11-25"',
        '"2026-07-28"',
      ]);
      expect(await both.getByRole('heading', { level: 4 }).allTextContents()).toEqual([
        '2025-11-25',
        '2026-07-28',
      ]);

      await page.getByRole('tab', { name: /Prompts/ }).click();
      await page.getByLabel('name', { exact: true }).fill('Ada');
      await page.getByRole('button', { name: 'Get on both revisions' }).click();
      await expect
        .poll(() => both.locator('table.diff tbody tr td').allTextContents())
        .toEqual(['messages[0].content.text', 'changed', '"Hello Ada"', '"Hello Ada, in 2026"']);

      await page.getByRole('tab', { name: 'Both revisions' }).click();
      await page.getByRole('button', { name: 'Compare tools' }).click();
      await expect.poll(() => both.getByRole('status').textContent()).toBe('Same result on both revisions.');
      expect(await both.locator('.compared-list').first().textContent()).toContain('echo');
      await page.getByRole('button', { name: 'Compare resources', exact: true }).click();
      await expect.poll(() => both.count()).toBe(2);
      await screenshot(page, 'console-revisions-lists');
      expect(await axeViolations(page)).toEqual([]);
    });
  },
);
