/**
 * Task-augmented tool calls in `mcpkit console` (issue 32): a tool whose `execution.taskSupport`
 * is `optional` gets a "Run as a task" choice; run so, the call goes as `mcpkit call --task` runs
 * it (`callToolAndWait`), the task's status is shown as the server reports it, and Cancel cancels
 * the task. Driven in headless Chromium against the demo server's `research` tool, on both
 * revisions (2025-11-25: tasks/get polling; 2026-07-28: the tasks extension).
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleBrowser, DEMO_STDIO, screenshot } from './support/consoleRun.js';
import { repoRoot } from './support/officialSchema.js';

const { open, skip } = consoleBrowser('tests/browser-console-tasks.test.ts');

/** Fills the research form and calls it as a task. */
async function research(page: Page, topic: string, stageMs: number): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Tools' })
    .getByRole('button', { name: /(^| )Research( |$)/ })
    .click();
  await page.getByLabel('topic', { exact: true }).fill(topic);
  await page.getByLabel('stageMs', { exact: true }).fill(String(stageMs));
  await page.getByLabel('Run as a task').check();
  await page.getByRole('button', { name: 'Call research' }).click();
}

const status = (page: Page) =>
  page.getByRole('status', { name: 'Task status' }).locator('strong').textContent();

describe.skipIf(skip)('task-augmented calls in mcpkit console', { timeout: 120_000 }, () => {
  for (const era of ['2025', '2026'] as const) {
    it(`runs a tool as a task, shows its status to completed, and cancels another (revision ${era})`, async () => {
      const { page } = await open(['--era', era, '--', ...DEMO_STDIO]);
      await research(page, 'tides', 400);
      await expect.poll(() => status(page)).toBe('working');
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('completed');
      await expect
        .poll(() => page.locator('.result pre.text-block').textContent())
        .toContain('Report on "tides"');
      const taskId = await page.getByRole('status', { name: 'Task status' }).locator('code').textContent();
      expect(taskId).toMatch(/\S/);
      await page.getByText('As a command line').click();
      await expect
        .poll(() => page.locator('pre.command').first().textContent())
        .toBe(
          `mcpkit call research --args '{"stageMs":400,"topic":"tides"}' --task -- ${DEMO_STDIO.join(' ')}`,
        );
      if (era === '2026') await screenshot(page, 'console-task');

      await research(page, 'glaciers', 3000);
      await expect.poll(() => status(page)).toBe('working');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('cancelled');
      await expect.poll(() => page.locator('.result').textContent()).toMatch(/cancel/i);
      await page.close();
    });
  }

  it('runs a task against a host (--config): McpHost follows it and reports its status', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-tasks-host-'));
    try {
      const config = path.join(dir, 'mcp.json');
      const demo = { command: DEMO_STDIO[0], args: DEMO_STDIO.slice(1), cwd: repoRoot };
      await writeFile(config, JSON.stringify({ mcpServers: { demo } }));
      const { page } = await open(['--config', config]);
      await page
        .getByRole('navigation', { name: 'Tools' })
        .getByRole('button', { name: /(^| )Research demo( |$)/ })
        .click();
      await page.getByLabel('topic', { exact: true }).fill('reefs');
      await page.getByLabel('stageMs', { exact: true }).fill('300');
      await page.getByLabel('Run as a task').check();
      await page.getByRole('button', { name: /^Call (demo__)?research$/ }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.textContent()).toContain('research');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('completed');
      await expect
        .poll(() => page.locator('.result pre.text-block').textContent())
        .toContain('Report on "reefs"');
      await page.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
