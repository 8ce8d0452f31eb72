/**
 * Task-augmented tool calls in `mcpkit console` (issue 32): a tool whose `execution.taskSupport`
 * is `optional` gets a "Run as a task" choice; run so, the call goes as `mcpkit call --task` runs
 * it (`callToolAndWait`), the task's status is shown as the server reports it, and Cancel cancels
 * the task. Driven in headless Chromium against the demo server's `research` tool, on both
 * revisions (2025-11-25: tasks/get polling; 2026-07-28: the tasks extension), and against
 * tests/fixtures/console-tasks-server.ts, whose tasks fail or wait for the person's input; the
 * same against a host (`--config`), cancel included.
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

/** The fixture server whose tasks fail or ask for input. */
const TASKS_STDIO = [
  process.execPath,
  '--import',
  './conformance/register-ts.mjs',
  path.join(repoRoot, 'tests/fixtures/console-tasks-server.ts'),
];

/** Runs one of the fixture's jobs as a task (`tool` as the list shows it, `name` as the catalogue names it). */
async function job(page: Page, tool: RegExp, name: string, value: string): Promise<void> {
  await page.getByRole('tab', { name: /Tools/ }).click();
  await page.getByRole('navigation', { name: 'Tools' }).getByRole('button', { name: tool }).click();
  await page.getByLabel('name', { exact: true }).fill(value);
  await page.getByLabel('Run as a task').check();
  await page.getByRole('button', { name: `Call ${name}` }).click();
}

/**
 * A task whose tool reports an error ends `failed` with why (2025-11-25; under 2026-07-28 it is
 * `completed` with the error result); one that asks shows `input required`, then completes.
 */
async function failedAndInputRequired(page: Page, server: RegExp, era: '2025' | '2026'): Promise<void> {
  await job(page, new RegExp(`^doomed_job${server.source}`), 'doomed_job', 'backup');
  if (era === '2025') {
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('failed');
    expect(await page.getByRole('status', { name: 'Task status' }).textContent()).toContain(
      'The job backup ran out of disk space',
    );
  } else await expect.poll(() => status(page), { timeout: 15_000 }).toBe('completed');
  await expect
    .poll(() => page.locator('.result').textContent())
    .toContain('The job backup ran out of disk space');

  await job(page, new RegExp(`^approve_job${server.source}`), 'approve_job', 'deploy');
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.textContent()).toContain('Approve the job deploy?');
  // While the person has not answered, the server reports the task waiting for input.
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe('input required');
  await dialog.getByLabel('Approved by').fill('Grace');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe('completed');
  await expect
    .poll(() => page.locator('.result pre.text-block').textContent())
    .toBe('The job deploy was approved by Grace.');
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

  for (const era of ['2025', '2026'] as const) {
    it(`shows a task that fails (2025-11-25), and one that waits for input until the person answers (revision ${era})`, async () => {
      const { page } = await open(['--era', era, '--', ...TASKS_STDIO]);
      await failedAndInputRequired(page, /$/, era);
      await page.close();
    });
  }

  it('against a host (--config): a cancelled task shows the status its server then reports (it stayed "working"), a failed one and one waiting for input', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-tasks-host-'));
    try {
      const config = path.join(dir, 'mcp.json');
      const demo = { command: DEMO_STDIO[0], args: DEMO_STDIO.slice(1), cwd: repoRoot };
      const jobs = { command: TASKS_STDIO[0], args: TASKS_STDIO.slice(1), cwd: repoRoot };
      await writeFile(config, JSON.stringify({ mcpServers: { demo, jobs } }));
      const { page } = await open(['--config', config]);
      await page
        .getByRole('navigation', { name: 'Tools' })
        .getByRole('button', { name: /(^| )Research demo( |$)/ })
        .click();
      await page.getByLabel('topic', { exact: true }).fill('moraines');
      await page.getByLabel('stageMs', { exact: true }).fill('3000');
      await page.getByLabel('Run as a task').check();
      await page.getByRole('button', { name: /^Call (demo__)?research$/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('working');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('cancelled');
      await expect.poll(() => page.locator('.result').textContent()).toMatch(/cancel/i);

      await failedAndInputRequired(page, / jobs$/, '2025');
      await page.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
