/**
 * `mcpkit console` in a real browser (issue 32): the CLI is started as a person starts it
 * (`mcpkit console --no-open TARGET`), and headless Chromium (Debian's, through playwright-core)
 * drives every panel through the page: tool forms and results, progress and cancel, what the
 * server asks (elicitation, sampling), resources with a live subscription, prompts, the protocol
 * log with its command lines, the revision pinned, against the demo server, server-everything
 * and a host of several servers. axe-core checks each main view; the same tests take the
 * README's screenshots (written to docs/images only by `npm run screenshots`, else to a temporary
 * folder: see `screenshot` in tests/support/consoleRun.ts).
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEverythingHttp } from './fixtures/everythingHttp.js';
import {
  axeViolations,
  CLI,
  consoleBrowser,
  DEMO_ENTRY,
  DEMO_STDIO,
  hostConfigFile,
  type RunningConsoleCli,
  runConsoleInProcess,
  saveSession,
  screenshot,
} from './support/consoleRun.js';
import { repoRoot } from './support/officialSchema.js';

const consoles = consoleBrowser('tests/browser-console.test.ts');
const { open, skip } = consoles;

/** A tool in the list, by its title or name (a host's server and a titled tool's name follow it). */
function tool(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page
    .getByRole('navigation', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`(^| )${escaped}( |$)`) })
    .first();
}

describe.skipIf(skip)('mcpkit console against the demo server over stdio', { timeout: 120_000 }, () => {
  let page: Page;
  let running: RunningConsoleCli;

  beforeAll(async () => {
    ({ page, running } = await open(['--', ...DEMO_STDIO]));
  }, 60_000);

  it('lists the tools, fills a form, calls the tool and shows the result and its command line', async () => {
    await expect.poll(() => tool(page, 'Echo').count()).toBe(1);
    await tool(page, 'Echo').click();
    await page.getByLabel('text', { exact: true }).fill('hello from the console');
    await page.getByRole('button', { name: 'Call echo' }).click();
    await expect
      .poll(() => page.locator('.result pre.text-block').textContent())
      .toBe('hello from the console');
    await page.getByText('As a command line').click();
    await expect
      .poll(() => page.locator('pre.command').first().textContent())
      .toBe(`mcpkit call echo --args '{"text":"hello from the console"}' -- ${DEMO_STDIO.join(' ')}`);
    await screenshot(page, 'console-tools');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('refuses arguments that do not fit the inputSchema before sending them', async () => {
    await tool(page, 'Add').click();
    await page.getByLabel('a', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Call add' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('missing required property "b"');
    // Only this second call is sent (the protocol log test counts the calls of add).
    await page.getByLabel('b', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Call add' }).click();
    await expect.poll(() => page.locator('.result pre.text-block').textContent()).toBe('3');
  });

  it('checks structured content against the outputSchema', async () => {
    await tool(page, 'Weather').click();
    await page.getByLabel('city', { exact: true }).fill('Paris');
    await page.getByRole('button', { name: 'Call weather' }).click();
    await expect.poll(() => page.getByText("Matches the tool's outputSchema.").count()).toBe(1);
    expect(await page.locator('.result pre.json').textContent()).toContain('"city": "Paris"');
  });

  it('makes the same call on both revisions and shows the answers side by side', async () => {
    await tool(page, 'Weather').click();
    await page.getByLabel('city', { exact: true }).fill('Oslo');
    await page.getByRole('button', { name: 'Call on both revisions' }).click();
    const both = page.getByRole('region', { name: 'Both revisions' });
    await expect
      .poll(() => both.getByRole('heading', { level: 4 }).allTextContents())
      .toEqual(['2025-11-25', '2026-07-28']);
    expect(await both.getByRole('status').textContent()).toBe('Same result on both revisions.');
    expect(await both.locator('pre.json').allTextContents()).toEqual([
      expect.stringContaining('"city": "Oslo"'),
      expect.stringContaining('"city": "Oslo"'),
    ]);
    await both.scrollIntoViewIfNeeded();
    await screenshot(page, 'console-revisions');
    // Each revision's connection has its own lines in the protocol log.
    await page.getByRole('tab', { name: /Protocol log/ }).click();
    await page.getByLabel('Server').selectOption('revision 2025');
    await page.getByLabel('Filter').fill('Oslo');
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(2);
    await page.getByLabel('Server').selectOption('all');
    await page.getByLabel('Filter').fill('');
    await page.getByRole('tab', { name: /Tools/ }).click();
  });

  it('shows progress while a call runs, and cancels it', async () => {
    await tool(page, 'Slow count').click();
    await page.getByLabel('steps', { exact: true }).fill('100');
    await page.getByLabel('delayMs', { exact: true }).fill('200');
    await page.getByRole('button', { name: 'Call slow_count' }).click();
    await expect
      .poll(async () => Number(await page.locator('#call-progress').getAttribute('value')))
      .toBeGreaterThan(1);
    expect(await page.locator('#call-progress').getAttribute('max')).toBe('100');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.locator('.result').textContent()).toMatch(/cancel/i);
  });

  it('renders images, audio and resource links, and reads a linked resource', async () => {
    await tool(page, 'Logo').click();
    await page.getByRole('button', { name: 'Call logo' }).click();
    await expect.poll(() => page.locator('.result img').count()).toBe(1);
    expect(await page.locator('.result img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await tool(page, 'Beep').click();
    await page.getByRole('button', { name: 'Call beep' }).click();
    await expect.poll(() => page.locator('.result audio').count()).toBe(1);
    await tool(page, 'Find resources').click();
    await page.getByRole('button', { name: 'Call find_resources' }).click();
    await expect.poll(() => page.locator('.result .resource-link').count()).toBeGreaterThan(0);
    await page.locator('.result .resource-link button').first().click();
    await expect
      .poll(() => page.getByRole('tab', { name: /Resources/ }).getAttribute('aria-selected'))
      .toBe('true');
    await expect.poll(() => page.locator('.embedded').count()).toBeGreaterThan(0);
  });

  it('answers an elicitation form: the person fills it and the server gets the answer', async () => {
    await page.getByRole('tab', { name: /Tools/ }).click();
    await tool(page, 'Book a table').click();
    await page.getByRole('button', { name: 'Call book_table' }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.getByRole('heading').textContent())
      .toBe('The server asks for information');
    await dialog.getByLabel('Name for the booking').fill('Ada');
    await dialog.getByLabel('Date').fill('2025-12-01');
    await dialog.getByLabel('Seating').selectOption({ label: 'On the terrace' });
    await dialog.getByLabel('vegan').check();
    await screenshot(page, 'console-elicitation');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => page.locator('.result pre.text-block').textContent())
      .toBe(
        'Booked Chez mcpkit for Ada, 2 guest(s) on 2025-12-01, terrace, dietary needs: vegan. Reminder: yes.',
      );
  });

  it('approves a sampling request with a reply the person wrote, and rejects another', async () => {
    await tool(page, 'Summarize').click();
    await page.getByLabel('text', { exact: true }).fill('A long story about a console.');
    await page.getByRole('button', { name: 'Call summarize' }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.getByRole('heading').textContent())
      .toBe('The server asks for a model reply');
    expect(await dialog.textContent()).toContain('A long story about a console.');
    await dialog.getByLabel(/Reply/).fill('A console story.');
    await screenshot(page, 'console-sampling');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => page.locator('.result pre.text-block').textContent())
      .toContain('A console story.');

    await page.getByRole('button', { name: 'Call summarize' }).click();
    await expect
      .poll(() => dialog.getByRole('heading').textContent())
      .toBe('The server asks for a model reply');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => page.locator('.result').textContent()).toMatch(/reject/i);
  });

  it('reads resources and templates, and shows a subscription update live', async () => {
    await page.getByRole('tab', { name: /Resources/ }).click();
    const list = page.getByRole('navigation', { name: 'Resources' });
    await list.getByRole('button', { name: /readme/i }).click();
    await expect.poll(() => page.locator('.embedded pre').first().textContent()).toContain('mcpkit');
    // A template: its variables offered by the server's completions, expanded and read.
    await page.getByLabel('category', { exact: true }).fill('fr');
    await expect
      .poll(() =>
        page
          .locator('datalist[id$="-category-options"] option')
          .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
      )
      .toContain('fruit');
    await page.getByLabel('category', { exact: true }).fill('fruit');
    await page.getByLabel('id', { exact: true }).fill('apple');
    await page.getByRole('button', { name: 'Read item' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'demo://items/fruit/apple' }).count()).toBe(1);
    await expect.poll(() => page.locator('.embedded').count()).toBeGreaterThan(0);
    await list.getByRole('button', { name: /clock/i }).click();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect
      .poll(() => page.locator('.updates').textContent(), { timeout: 20_000 })
      .toMatch(/^\d+ update\(s\)/);
    await screenshot(page, 'console-resources');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
  });

  it('gets a prompt with its arguments and shows the messages', async () => {
    await page.getByRole('tab', { name: /Prompts/ }).click();
    await page
      .getByRole('navigation', { name: 'Prompts' })
      .getByRole('button', { name: /translate/i })
      .click();
    await page.getByLabel('text', { exact: true }).fill('Good morning');
    await page.getByLabel('language', { exact: true }).fill('French');
    await page.getByRole('button', { name: 'Get translate' }).click();
    await expect.poll(() => page.locator('.message').first().textContent()).toContain('Good morning');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('logs every message both ways with size and timing, filters them, and exports a command line', async () => {
    await page.getByRole('tab', { name: /Protocol log/ }).click();
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBeGreaterThan(10);
    await page.getByLabel('Filter').fill('hello from the console');
    await page.getByLabel('Direction').selectOption('out');
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(1);
    await page.locator('table.log tbody tr button').first().click();
    await expect
      .poll(() => page.locator('.log-detail pre.command').textContent())
      .toBe(`mcpkit call echo --args '{"text":"hello from the console"}' -- ${DEMO_STDIO.join(' ')}`);
    // The call of add that did not fit its inputSchema was never sent.
    await page.getByLabel('Filter').fill('"name":"add"');
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(1);
    await page.getByLabel('Direction').selectOption('all');
    await page.getByLabel('Filter').fill('');
    // Responses carry how long their request took.
    expect(await page.locator('table.log tbody tr td:last-child').allTextContents()).toContainEqual(
      expect.stringMatching(/^\d+ ms$/),
    );
    await screenshot(page, 'console-log');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('saves the session to a file, replays it, and shows which answers changed', async () => {
    const saved = await saveSession(page);
    expect(saved).toMatchObject({
      format: 'mcpkit-console-session',
      version: 1,
      target: `-- ${DEMO_STDIO.join(' ')}`,
    });
    const echo = saved.exchanges.find(
      (exchange: any) =>
        exchange.method === 'tools/call' && exchange.params.arguments?.text === 'hello from the console',
    );
    expect(echo.result.content).toEqual([{ type: 'text', text: 'hello from the console' }]);
    // The deterministic part of the session is the fixture (a clock resource or a form would not be).
    const stable = saved.exchanges.filter(
      (exchange: any) =>
        exchange.method === 'tools/list' ||
        (exchange.method === 'tools/call' && ['echo', 'add', 'weather'].includes(exchange.params.name)) ||
        (exchange.method === 'resources/read' && exchange.params.uri === 'demo://readme'),
    );
    expect(stable.length).toBeGreaterThan(4);
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-session-'));
    try {
      const fixture = path.join(dir, 'session.json');
      await writeFile(fixture, JSON.stringify({ ...saved, exchanges: stable }));
      await page.getByLabel('Replay a saved session').setInputFiles(fixture);
      const status = page.getByRole('region', { name: 'Record and replay' }).getByRole('status');
      await expect
        .poll(() => status.textContent())
        .toBe(`All ${stable.length} answers are the same as recorded.`);

      // A recorded answer the server no longer gives is shown as changed, with both answers.
      const edited = structuredClone(stable);
      edited.find(
        (exchange: any) => exchange.params.arguments?.text === 'hello from the console',
      ).result.content[0].text = 'what the server used to say';
      await writeFile(fixture, JSON.stringify({ ...saved, exchanges: edited }));
      await page.getByLabel('Replay a saved session').setInputFiles([]);
      await page.getByLabel('Replay a saved session').setInputFiles(fixture);
      await expect.poll(() => status.textContent()).toBe(`1 of ${stable.length} answers changed.`);
      // Field by field: the one path that changed, with the recorded and the present value.
      await page.getByText('changed: content[0].text', { exact: true }).click();
      expect(await page.locator('.session table.diff tbody td').allTextContents()).toEqual([
        'content[0].text',
        'changed',
        '"what the server used to say"',
        '"hello from the console"',
      ]);
      await screenshot(page, 'console-replay');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets the person choose the roots the server sees', async () => {
    await page.getByRole('tab', { name: /Roots/ }).click();
    await page.getByLabel('Folder URI').fill('file:///work/project');
    await page.getByLabel('Name', { exact: true }).fill('project');
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect.poll(() => page.getByRole('tab', { name: /Roots/ }).textContent()).toBe('Roots (1)');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: /Tools/ }).click();
    await tool(page, 'List roots').click();
    await page.getByRole('button', { name: 'Call list_roots' }).click();
    await expect
      .poll(() => page.locator('.result pre.text-block').textContent())
      .toBe('The client shares 1 root:\n- project: file:///work/project');
    // A URI that is not a folder on this machine is refused before the server hears of it.
    await page.getByRole('tab', { name: /Roots/ }).click();
    await page.getByLabel('Folder URI').fill('https://example.com/');
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('must be a file:// URI');
    await page.getByRole('button', { name: 'Remove project' }).click();
    await expect.poll(() => page.getByRole('tab', { name: /Roots/ }).textContent()).toBe('Roots (0)');
  });

  it('shows the negotiated revision and pins another', async () => {
    await expect
      .poll(() => page.getByTestId('revision').textContent())
      .toMatch(/Revision: \d{4}-\d{2}-\d{2}/);
    await page.getByLabel('Pin revision').selectOption('2025');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => page.getByTestId('revision').textContent()).toBe('Revision: 2025-11-25');
  });

  it('is driven by the keyboard: arrow keys move between tabs', async () => {
    await page.getByRole('tab', { name: /Tools/ }).click();
    await page.getByRole('tab', { name: /Tools/ }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: /Resources/ }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-resources');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-roots');
    await page.keyboard.press('Home');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-tools');
  });

  it('stops on Ctrl-C with exit code 0', async () => {
    expect(await running.stop()).toBe(0);
  });
});

describe.skipIf(skip)('mcpkit console: the forms a schema makes', { timeout: 120_000 }, () => {
  let page: Page;
  const FORMS_SERVER = [process.execPath, ...CLI.slice(0, 2), 'tests/fixtures/console-forms-server.ts'];

  beforeAll(async () => {
    ({ page } = await open(['--', ...FORMS_SERVER]));
  }, 60_000);

  it('fills nested objects, arrays, enums, oneOf variants and nullable fields, with defaults, and sends exactly that', async () => {
    await tool(page, 'Configure a widget').click();
    // Defaults are filled in.
    expect(await page.getByLabel('name', { exact: true }).inputValue()).toBe('widget');
    expect(await page.getByLabel('mode', { exact: true }).inputValue()).toBe('"safe"');
    expect(await page.getByLabel('retries', { exact: true }).inputValue()).toBe('2');
    expect(await page.getByLabel('enabled', { exact: true }).isChecked()).toBe(true);
    // A required nested field left empty is refused before anything is sent.
    await page.getByRole('button', { name: 'Call configure' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('missing required property "email"');

    await page.getByLabel('mode', { exact: true }).selectOption({ label: 'fast' });
    await page.getByLabel('email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('team', { exact: true }).fill('core');
    await page.getByLabel('team: null').check();
    expect(await page.getByLabel('team', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add Tag' }).click();
    await page.getByRole('button', { name: 'Add Tag' }).click();
    await page.getByLabel('Tag 1', { exact: true }).fill('blue');
    await page.getByLabel('Tag 2', { exact: true }).fill('green');
    await page.getByRole('button', { name: 'Remove Tag 1' }).click();
    await page.getByLabel('Target: which').selectOption({ label: 'By path' });
    await page.getByLabel('path', { exact: true }).fill('/a/b');
    await page.getByRole('button', { name: 'Call configure' }).click();
    await expect.poll(() => page.getByText("Matches the tool's outputSchema.").count()).toBe(1);
    const structured = JSON.parse((await page.locator('.result pre.json').textContent())!);
    expect(structured).toEqual({
      received: {
        name: 'widget',
        mode: 'fast',
        retries: 2,
        owner: { email: 'ada@example.com', team: null },
        tags: ['green'],
        target: { path: '/a/b' },
        enabled: true,
      },
    });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('gives a tool that links an MCP App its App slot, which says why a view it cannot read is not shown', async () => {
    await tool(page, 'chart').click();
    await page.getByRole('button', { name: 'Call chart' }).click();
    // The server has no ui://charts/bar resource (browser-console-apps.test.ts renders real views).
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'MCP App ui://charts/bar' }).getByRole('alert').textContent(),
      )
      .toMatch(/^The App could not be shown: ./);
  });
});

describe.skipIf(skip)(
  'mcpkit console against server-everything over Streamable HTTP',
  { timeout: 120_000 },
  () => {
    let page: Page;
    let everything: Awaited<ReturnType<typeof startEverythingHttp>>;

    beforeAll(async () => {
      everything = await startEverythingHttp();
      ({ page } = await open([everything.url]));
    }, 60_000);

    afterAll(async () => {
      await everything?.close();
    });

    it("answers its elicitation form (every field type), with the form's defaults", async () => {
      await tool(page, 'trigger-elicitation-request').click();
      await page.getByRole('button', { name: 'Call trigger-elicitation-request' }).click();
      const dialog = page.getByRole('dialog');
      await expect
        .poll(() => dialog.getByRole('heading').textContent())
        .toBe('The server asks for information');
      expect(await dialog.getByLabel('Integer', { exact: true }).inputValue()).toBe('42');
      expect(await dialog.getByLabel('Guitar').isChecked()).toBe(true);
      await dialog.getByLabel('String', { exact: true }).fill('Grace');
      await dialog
        .getByLabel('Titled Single Select Enum', { exact: true })
        .selectOption({ label: 'Wonder Woman' });
      await dialog.getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => page.locator('.result').textContent()).toContain('- Name: Grace');
      expect(await page.locator('.result').textContent()).toContain('- Favorite Integer: 42');
    });

    it('approves its sampling request with an edited reply, then rejects one', async () => {
      await tool(page, 'trigger-sampling-request').click();
      await page.getByLabel('prompt', { exact: true }).fill('Say hi');
      await page.getByRole('button', { name: 'Call trigger-sampling-request' }).click();
      const dialog = page.getByRole('dialog');
      await expect
        .poll(() => dialog.getByRole('heading').textContent())
        .toBe('The server asks for a model reply');
      await dialog.getByLabel(/Reply/).fill('Hi from a person');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => page.locator('.result').textContent()).toContain('Hi from a person');

      await page.getByRole('button', { name: 'Call trigger-sampling-request' }).click();
      await expect
        .poll(() => dialog.getByRole('heading').textContent())
        .toBe('The server asks for a model reply');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await expect.poll(() => page.locator('.result').textContent()).toMatch(/reject/i);
    });

    it('checks its structured content and renders its image', async () => {
      await tool(page, 'get-structured-content').click();
      await page.getByLabel('location', { exact: true }).selectOption({ label: 'Chicago' });
      await page.getByRole('button', { name: 'Call get-structured-content' }).click();
      await expect.poll(() => page.getByText("Matches the tool's outputSchema.").count()).toBe(1);
      await tool(page, 'get-tiny-image').click();
      await page.getByRole('button', { name: 'Call get-tiny-image' }).click();
      await expect.poll(() => page.locator('.result img').count()).toBe(1);
    });

    it('renders an embedded resource in a result', async () => {
      await tool(page, 'get-resource-reference').click();
      await page.getByRole('button', { name: 'Call get-resource-reference' }).click();
      await expect
        .poll(() => page.locator('.result .embedded code').first().textContent())
        .toMatch(/^demo:\/\//);
      expect(await page.locator('.result .embedded pre').textContent()).toMatch(/\S/);
    });
  },
);

describe.skipIf(skip)(
  'mcpkit console against a host of several servers (--config)',
  { timeout: 120_000 },
  () => {
    let page: Page;
    let dir: string;

    beforeAll(async () => {
      let config: string;
      ({ dir, config } = await hostConfigFile(() => ({
        demo: DEMO_ENTRY,
        upstream: {
          command: process.execPath,
          args: [path.join(repoRoot, 'tests/fixtures/host-upstream.mjs')],
        },
        broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      })));
      ({ page } = await open(['--config', config]));
    }, 60_000);

    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("shows each server's state, a failed one with its reason, and the namespaced catalogue", async () => {
      await page.getByRole('tab', { name: 'Servers' }).click();
      const servers = page.getByRole('region', { name: 'Servers' });
      await expect.poll(() => servers.getByRole('row', { name: /demo/ }).textContent()).toContain('ready');
      await expect
        .poll(() => servers.getByRole('row', { name: /upstream/ }).textContent())
        .toContain('ready');
      await expect
        .poll(() => servers.getByRole('row', { name: /broken/ }).textContent(), { timeout: 20_000 })
        .toMatch(/failed.+\S/);
      const catalogue = page.getByRole('region', { name: 'Catalogue' });
      await expect
        .poll(() => catalogue.getByRole('row', { name: /demo__echo/ }).textContent())
        .toBe('demo__echodemoecho');
      expect(await catalogue.getByRole('row', { name: /upstream__echo/ }).textContent()).toBe(
        'upstream__echoupstreamecho',
      );
      await screenshot(page, 'console-host');
      expect(await axeViolations(page)).toEqual([]);
    });

    it('asks consent for an open-world tool call, records the denial and the approval as policy decisions', async () => {
      await page.getByRole('tab', { name: /Tools/ }).click();
      await tool(page, 'Connect an account').click();
      await page.getByRole('button', { name: 'Call connect_account' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Allow this tool call?');
      expect(await dialog.textContent()).toContain('Server demo would run tool connect_account');
      await screenshot(page, 'console-consent');
      await dialog.getByRole('button', { name: 'Deny' }).click();
      await expect
        .poll(() => page.locator('.result').textContent())
        .toContain('was not run: the user declined it.');

      await page.getByRole('button', { name: 'Call connect_account' }).click();
      await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Allow this tool call?');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      // The demo server then asks through the host (URL mode): the dialog names the server that asks.
      await expect
        .poll(() => dialog.getByRole('heading').textContent())
        .toBe('The server asks you to open a page');
      expect(await dialog.textContent()).toContain('From server demo');
      expect(await dialog.getByRole('link').getAttribute('href')).toMatch(
        /^https:\/\/example\.com\/mcpkit-demo\/connect\//,
      );
      await dialog.getByRole('button', { name: 'Accept' }).click();
      await expect
        .poll(() => page.locator('.result').textContent())
        .toContain('Connected your calendar account (simulated).');

      await page.getByRole('tab', { name: 'Servers' }).click();
      const decisions = page.getByRole('region', { name: 'Policy decisions' });
      await expect
        .poll(() => decisions.getByRole('row', { name: /connect_account/ }).allTextContents())
        .toEqual([
          expect.stringMatching(/demotools\/callconnect_accountallowedok/),
          expect.stringMatching(/demotools\/callconnect_accountdenieddenied/),
        ]);
    });

    it('logs the messages of each server, filterable by server', async () => {
      await page.getByRole('tab', { name: /Protocol log/ }).click();
      await page.getByLabel('Server').selectOption('upstream');
      await expect.poll(() => page.locator('table.log tbody tr').count()).toBeGreaterThan(2);
      const servers = await page.locator('table.log tbody tr td:nth-child(3)').allTextContents();
      expect(new Set(servers)).toEqual(new Set(['upstream']));
    });
  },
);

describe.skipIf(skip)(
  'mcpkit console against the demo server over HTTP (mcpkit serve --http)',
  { timeout: 120_000 },
  () => {
    let dir: string;
    let serve: ReturnType<typeof spawn> | undefined;
    let base: string;

    beforeAll(async () => {
      serve = spawn(process.execPath, [...CLI, 'serve', '--http', '--port', '0'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      base = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`mcpkit serve printed no URL: ${out}`)), 30_000);
        serve!.stdout!.on('data', (chunk) => {
          out += chunk;
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(out);
          if (found) {
            clearTimeout(timer);
            resolve(found[1]!);
          }
        });
      });
      dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-sse-'));
    }, 60_000);

    afterAll(async () => {
      serve?.kill('SIGINT');
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('speaks Streamable HTTP to a URL', async () => {
      const { page } = await open([`${base}/mcp`]);
      await tool(page, 'Echo').click();
      await page.getByLabel('text', { exact: true }).fill('over http');
      await page.getByRole('button', { name: 'Call echo' }).click();
      await expect.poll(() => page.locator('.result pre.text-block').textContent()).toBe('over http');
    });

    it('speaks legacy HTTP+SSE to a config entry of type sse', async () => {
      const config = path.join(dir, 'mcp.json');
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { legacy: { type: 'sse', url: `${base}/sse` } } }),
      );
      const { page } = await open(['--config', config, '--server', 'legacy']);
      expect(await page.getByTestId('revision').textContent()).toMatch(/Revision: 20\d\d-\d\d-\d\d/);
      await tool(page, 'Echo').click();
      await page.getByLabel('text', { exact: true }).fill('over legacy sse');
      await page.getByRole('button', { name: 'Call echo' }).click();
      await expect.poll(() => page.locator('.result pre.text-block').textContent()).toBe('over legacy sse');
      await page.getByText('As a command line').click();
      expect(await page.locator('pre.command').first().textContent()).toBe(
        `mcpkit call --config ${config} --server legacy echo --args '{"text":"over legacy sse"}'`,
      );
    });
  },
);

describe.skipIf(skip)('mcpkit console opens the browser', { timeout: 120_000 }, () => {
  it('hands its URL to the browser opener (without --no-open), which opens it connected; Ctrl-C stops it', async () => {
    let opened: Page | undefined;
    // The opener of this test is the test's Chromium: the page it opens must work.
    const running = runConsoleInProcess(['--', ...DEMO_STDIO], {
      openBrowser: async (url) => {
        const tab = await consoles.newPage();
        opened = tab;
        await tab.goto(url);
        return true;
      },
    });
    await expect
      .poll(() => opened?.getByText('connected', { exact: true }).count() ?? 0, { timeout: 30_000 })
      .toBe(1);
    expect(opened!.url()).toBe(running.stdout().trim());
    await expect.poll(() => tool(opened!, 'Echo').count()).toBe(1);
    expect(await running.stop()).toBe(0);
  });
});
