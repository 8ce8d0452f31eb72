/**
 * MCP Apps in `mcpkit console` (issues 31 and 32): the console's page renders a tool's `ui://`
 * view through `@mcpkit/apps/bridge`, in the sandbox proxy the console serves on a second loopback
 * origin, and the view's requests go through the console's backend. Driven in headless Chromium
 * through the page as a person drives it, against the demo server (the tally view's +1 calls the
 * app-only `tally_add` back), an apps fixture over HTTP (a model-only tool refused to the view)
 * and the official ext-apps example `@modelcontextprotocol/server-basic-vanillajs` over stdio.
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path, { dirname, join } from 'node:path';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import type { Frame, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { appFixtureServer } from './fixtures/appServer.js';
import { axeViolations, consoleBrowser, DEMO_STDIO, screenshot } from './support/consoleRun.js';
import { repoRoot } from './support/officialSchema.js';

const consoles = consoleBrowser('tests/browser-console-apps.test.ts');
const { open, skip } = consoles;
let fixture: ServedHandler | undefined;

afterAll(async () => {
  await fixture?.close();
});

/** The status of a GET of `url` sent with another `Host` header. */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Picks a tool in the list. */
async function pickTool(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`(^| )${label}( |$)`) })
    .first()
    .click();
}

/** Picks a tool in the list and calls it with no arguments. */
async function callTool(page: Page, label: string, name: string): Promise<void> {
  await pickTool(page, label);
  await page.getByRole('button', { name: `Call ${name}` }).click();
}

/** The sandbox proxy frame (its origin is not the console's) and the view inside it. */
async function appFrames(page: Page, consoleOrigin: string): Promise<{ proxy: Frame; view: Frame }> {
  let found: { proxy: Frame; view: Frame } | undefined;
  await expect
    .poll(() => {
      const proxy = page.frames().find((frame) => frame.parentFrame() === page.mainFrame());
      const view = page.frames().find((frame) => proxy !== undefined && frame.parentFrame() === proxy);
      found = proxy && view ? { proxy, view } : undefined;
      return found !== undefined && proxy!.url().startsWith('http');
    })
    .toBe(true);
  const origin = new URL(found!.proxy.url()).origin;
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(origin).not.toBe(consoleOrigin);
  const element = await found!.proxy.frameElement();
  expect(await element.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
  return found!;
}

describe.skipIf(skip)('MCP Apps in mcpkit console', { timeout: 120_000 }, () => {
  it('renders the demo tally view on the sandbox origin; its +1 calls the app-only tally_add through the backend', async () => {
    const { page, running } = await open(['--', ...DEMO_STDIO]);
    await callTool(page, 'Show tally', 'show_tally');
    const slot = page.getByRole('region', { name: 'MCP App ui://demo/tally' });
    await slot.waitFor();
    const { proxy, view } = await appFrames(page, running.origin);
    await expect.poll(() => view.textContent('#count')).toBe('0');
    await view.click('#add');
    await expect.poll(() => view.textContent('#count')).toBe('1');
    await view.click('#add');
    await expect.poll(() => view.textContent('#count')).toBe('2');
    await screenshot(page, 'console-app');
    // The sandbox origin serves the proxy page only: none of the console's API.
    const sandboxOrigin = new URL(proxy.url()).origin;
    const api = await fetch(`${sandboxOrigin}/api/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': running.token },
      body: '{}',
    });
    expect(api.status).toBe(404);
    expect(await api.text()).not.toContain('connected');
    // A DNS-rebinding name is refused there as at the console; the page frames that origin only.
    expect(await statusWithHost(`${sandboxOrigin}/sandbox`, 'rebind.test')).toBe(421);
    const pageCsp = (await fetch(running.url)).headers.get('content-security-policy') ?? '';
    expect(pageCsp).toContain(`frame-src ${sandboxOrigin};`);
    expect(pageCsp).toContain("frame-ancestors 'none'");
    // Another tool picked: the slot goes, and the view with it.
    await pickTool(page, 'Echo');
    await expect.poll(() => page.locator('.app-slot').count()).toBe(0);
    await expect.poll(() => page.frames().length).toBe(1);
    // The view's calls went through the console's backend: its protocol log shows both.
    await page.getByRole('tab', { name: /Protocol log/ }).click();
    await page.getByLabel('Filter').fill('tally_add');
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBeGreaterThanOrEqual(2);
    await page.close();
    // The sandbox server stops with the console.
    expect(await running.stop()).toBe(0);
    await expect(fetch(`${sandboxOrigin}/sandbox`)).rejects.toThrow();
  });

  it('refuses the view a model-only tool, lets it call an app-only one, and tears it down when the slot goes', async () => {
    fixture ??= await serve(createStreamableHttpHandler(appFixtureServer()), { host: '127.0.0.1', port: 0 });
    const { page, running } = await open([`http://127.0.0.1:${fixture.port}/mcp`]);
    await callTool(page, 'show_counter', 'show_counter');
    const { view } = await appFrames(page, running.origin);
    await expect.poll(() => view.evaluate(() => (window as any).__view.ready === true)).toBe(true);
    const modelOnly = await view.evaluate(() =>
      (window as any).__view.request('tools/call', { name: 'secret_admin', arguments: {} }),
    );
    expect(modelOnly.error.message).toBe(
      'Tool "secret_admin" is not callable from an app: its visibility does not include "app"',
    );
    const appOnly = await view.evaluate(() =>
      (window as any).__view.request('tools/call', { name: 'increment', arguments: {} }),
    );
    expect(appOnly.result.structuredContent).toEqual({ count: 1 });
    const listed = await view.evaluate(() => (window as any).__view.request('tools/list', {}));
    const names = listed.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('increment');
    expect(names).not.toContain('secret_admin');
    // The view is torn down (ui/resource-teardown, then the frame goes) when another call replaces its slot.
    await callTool(page, 'plain', 'plain');
    await expect.poll(() => page.locator('.app-slot').count()).toBe(0);
    await expect.poll(() => page.frames().length).toBe(1);
    await page.close();
  });

  it('shows the view fullscreen (left with Escape or a button) and in picture-in-picture across tabs, with its messages and model context under it', async () => {
    fixture ??= await serve(createStreamableHttpHandler(appFixtureServer()), { host: '127.0.0.1', port: 0 });
    const { page, running } = await open([`http://127.0.0.1:${fixture.port}/mcp`]);
    await callTool(page, 'show_modes', 'show_modes');
    const slot = page.getByRole('region', { name: 'MCP App ui://fixture/modes' });
    const { proxy, view } = await appFrames(page, running.origin);
    await expect.poll(() => view.evaluate(() => (window as any).__view.ready === true)).toBe(true);
    // Set in the view's page: still there later shows the view was never reloaded.
    await view.evaluate(() => ((window as any).__view.marker = 'same view'));
    const answers = () =>
      view.evaluate(() =>
        (window as any).__view.answers.map(({ answer }: any) => ({
          result: answer.result,
          error: answer.error,
        })),
      );
    // The host context as the view keeps it: each change merged into what it knew.
    const hostContext = () =>
      view.evaluate(() =>
        Object.assign(
          { ...(window as any).__view.init.result.hostContext },
          ...(window as any).__view.seen
            .filter((m: any) => m.method === 'ui/notifications/host-context-changed')
            .map((m: any) => m.params),
        ),
      );

    // ui/message: the console has no conversation, so it lists the message under the view, and accepts it.
    await view.click('#message');
    const fromView = slot.getByRole('region', { name: 'From the view' });
    await expect
      .poll(() => fromView.getByRole('list', { name: 'Messages' }).textContent())
      .toBe('userHello from the view');
    // ui/update-model-context: the latest replaces the one before.
    await view.click('#context');
    await view.click('#context');
    const context = fromView.getByRole('region', { name: 'Model context' });
    await expect.poll(() => context.textContent()).toContain('The person is at step 2');
    expect(await context.textContent()).not.toContain('step 1');
    expect(await context.textContent()).toContain('"step": 2');
    await expect.poll(() => answers()).toEqual([{ result: {} }, { result: {} }, { result: {} }]);
    expect(await axeViolations(page)).toEqual([]);

    // The view asks for fullscreen: the page's overlay, the focus on its way out, the view told.
    const frameElement = await proxy.frameElement();
    await view.click('#fullscreen');
    await expect.poll(async () => (await answers()).at(-1)).toEqual({ result: { mode: 'fullscreen' } });
    await expect.poll(() => view.textContent('#mode')).toBe('fullscreen');
    const viewport = page.viewportSize()!;
    const box = (await frameElement.boundingBox())!;
    expect(box.width).toBeGreaterThan(viewport.width - 40);
    expect(box.height).toBeGreaterThan(viewport.height / 2);
    const told = await hostContext();
    expect(told.displayMode).toBe('fullscreen');
    // Its container is fixed at the frame's size now.
    expect(Math.abs(told.containerDimensions.width - box.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(told.containerDimensions.height - box.height)).toBeLessThanOrEqual(1);
    const exit = page.getByRole('button', { name: 'Exit fullscreen' });
    await expect.poll(() => exit.evaluate((button) => button === document.activeElement)).toBe(true);
    // Modal: the page behind it is inert until the view leaves fullscreen.
    const tabsInert = () => page.getByRole('tablist').evaluate((tabs) => tabs.closest('[inert]') !== null);
    expect(await tabsInert()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.textContent('#mode')).toBe('inline');
    expect(await tabsInert()).toBe(false);
    const inline = await hostContext();
    expect(inline.displayMode).toBe('inline');
    expect(inline.containerDimensions).toEqual({});
    expect((await frameElement.boundingBox())!.height).toBeLessThan(viewport.height / 2);
    // The person's own button does the same, and the Exit button takes it back.
    await slot.getByRole('button', { name: 'Fullscreen' }).click();
    await expect.poll(() => view.textContent('#mode')).toBe('fullscreen');
    await exit.click();
    await expect.poll(() => view.textContent('#mode')).toBe('inline');

    // Picture-in-picture: a floating panel that stays while the person uses other tabs.
    await view.click('#pip');
    await expect.poll(() => view.textContent('#mode')).toBe('pip');
    expect(await slot.textContent()).toContain('This App is shown in picture-in-picture.');
    await page.getByRole('tab', { name: /Resources/ }).click();
    await expect.poll(() => slot.count()).toBe(0);
    const floating = page.locator('body > .app-stage.pip');
    await expect.poll(() => floating.count()).toBe(1);
    expect(view.isDetached()).toBe(false);
    expect(await view.evaluate(() => (window as any).__view.marker)).toBe('same view');
    const pipBox = (await frameElement.boundingBox())!;
    expect(pipBox.width).toBeLessThan(viewport.width / 2);
    await screenshot(page, 'console-app-pip');
    expect(await axeViolations(page)).toEqual([]);
    // Its slot is gone: inline is no longer offered, a request for it keeps the panel floating.
    const offered = await view.evaluate(() =>
      (window as any).__view.seen
        .filter(
          (m: any) => m.method === 'ui/notifications/host-context-changed' && m.params.availableDisplayModes,
        )
        .map((m: any) => m.params.availableDisplayModes),
    );
    expect(offered).toEqual([['fullscreen', 'pip']]);
    await view.click('#inline');
    await expect.poll(async () => (await answers()).at(-1)).toEqual({ result: { mode: 'pip' } });
    // The view keeps working there: its messages still reach the console.
    await view.click('#message');
    await expect.poll(() => floating.getByRole('list', { name: 'Messages' }).locator('li').count()).toBe(2);
    // Closed by the person: ui/resource-teardown, then the frame and the panel go.
    await floating.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => floating.count()).toBe(0);
    await expect.poll(() => page.frames().length).toBe(1);
    await page.close();
  });

  it("asks the person before saving a view's files (saved from the console's origin, or declined), shows its sampling request as the view's, and calls the view's own tool", async () => {
    fixture ??= await serve(createStreamableHttpHandler(appFixtureServer()), { host: '127.0.0.1', port: 0 });
    const { page, running } = await open([`http://127.0.0.1:${fixture.port}/mcp`]);
    await callTool(page, 'show_desk', 'show_desk');
    const slot = page.getByRole('region', { name: 'MCP App ui://fixture/desk' });
    const { view } = await appFrames(page, running.origin);
    await expect.poll(() => view.evaluate(() => (window as any).__view.ready === true)).toBe(true);
    const answers = () =>
      view.evaluate(() =>
        (window as any).__view.answers.map(({ id, answer }: any) => ({
          id,
          result: answer.result,
          error: answer.error,
        })),
      );
    const dialog = page.getByRole('dialog');

    // ui/download-file: the dialog names the file, its type and size and the tool whose view asks.
    await view.click('#download-text');
    await expect.poll(() => dialog.textContent()).toContain('Save files from an App?');
    const asked = (await dialog.textContent()) ?? '';
    expect(asked).toContain('notes.json');
    expect(asked).toContain('application/json');
    expect(asked).toContain('19 bytes');
    expect(asked).toContain('From the App view of tool show_desk');
    expect(await axeViolations(page)).toEqual([]);
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(saved.suggestedFilename()).toBe('notes.json');
    // Saved from an object URL of the console's own page, never a URL the view named.
    expect(saved.url()).toMatch(new RegExp(`^blob:${running.origin}/`));
    expect(await readFile((await saved.path())!, 'utf8')).toBe('{"notes":["first"]}');
    await expect.poll(() => answers()).toEqual([{ id: 'download-text', result: {} }]);
    // Bytes, under a name with the path taken off.
    await view.click('#download-bytes');
    await expect.poll(() => dialog.textContent()).toContain('data.bin');
    expect(await dialog.textContent()).toContain('application/octet-stream, 5 bytes');
    const [bytes] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(bytes.suggestedFilename()).toBe('data.bin');
    expect([...(await readFile((await bytes.path())!))]).toEqual([0, 1, 2, 254, 255]);
    // Declined: no download, and the view hears the spec's refusal.
    let downloads = 0;
    page.on('download', () => downloads++);
    await view.click('#download-text');
    await dialog.getByRole('button', { name: "Don't save" }).click();
    await expect
      .poll(async () => (await answers()).at(-1))
      .toEqual({ id: 'download-text', error: { code: -32000, message: 'Download denied by user' } });
    expect(downloads).toBe(0);
    // A link is named with its URL and only opened (in a new tab) on yes; a non-web link is refused unasked.
    const tabs = page.context().pages().length;
    const viewRequest = (params: unknown) =>
      view.evaluate((p) => (window as any).__view.request('ui/download-file', p), params);
    const linked = viewRequest({
      contents: [{ type: 'resource_link', uri: 'https://example.invalid/q4.pdf', name: 'Q4 report' }],
    });
    await expect.poll(() => dialog.textContent()).toContain('https://example.invalid/q4.pdf');
    expect(await dialog.textContent()).toContain('a link, opened in a new tab on yes');
    await dialog.getByRole('button', { name: "Don't save" }).click();
    expect(await linked).toMatchObject({ error: { code: -32000, message: 'Download denied by user' } });
    const script = await viewRequest({
      contents: [{ type: 'resource_link', uri: 'javascript:alert(1)', name: 'x' }],
    });
    expect(script).toMatchObject({
      error: { code: -32000, message: 'Policy violation: only http and https links are offered' },
    });
    expect(await dialog.count()).toBe(0);
    expect(page.context().pages()).toHaveLength(tabs);

    // sampling/createMessage from the view: the console's sampling question, labelled as the view's.
    await view.click('#sample');
    await expect.poll(() => dialog.textContent()).toContain('An App asks for a model reply');
    expect(await dialog.textContent()).toContain('Summarise the desk');
    expect(await dialog.textContent()).toContain('From the App view of tool show_desk');
    await dialog.getByLabel("Reply (sent as the model's message)").fill('The desk is tidy');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(async () => (await answers()).at(-1))
      .toMatchObject({
        id: 'sample',
        result: { role: 'assistant', content: { type: 'text', text: 'The desk is tidy' } },
      });
    await view.click('#sample');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect
      .poll(async () => (await answers()).at(-1))
      .toEqual({ id: 'sample', error: { code: -1, message: 'User rejected sampling request' } });

    // The view's own tool, listed under it with a form from its inputSchema, called through the bridge.
    const tools = slot.getByRole('region', { name: 'Tools of this view' });
    const setNote = tools.getByRole('form', { name: 'View tool set_note' });
    await setNote.getByRole('button', { name: 'Call set_note in the view' }).click();
    // Checked against its inputSchema first: text is required.
    await expect
      .poll(() => setNote.textContent())
      .toContain("The arguments do not fit the tool's inputSchema");
    await setNote.getByLabel(/text/).fill('water the plant');
    await setNote.getByRole('button', { name: 'Call set_note in the view' }).click();
    await expect
      .poll(() => setNote.getByRole('region', { name: 'Result of set_note' }).textContent())
      .toContain('The note says water the plant');
    expect(await view.textContent('#note')).toBe('water the plant');
    // The view says its tools changed: they are listed again.
    await view.evaluate(() => {
      const desk = (window as any).__view;
      desk.moreTools.push({ name: 'clear_note', inputSchema: { type: 'object' } });
      desk.notify('notifications/tools/list_changed', {});
    });
    await tools.getByRole('form', { name: 'View tool clear_note' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('renders the official ext-apps example (server-basic-vanillajs over stdio) and its get-time button', async () => {
    const require = createRequire(import.meta.url);
    const example = join(
      dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')),
      'index.js',
    );
    const { page, running } = await open(['--', process.execPath, example, '--stdio']);
    await callTool(page, 'get-time', 'get-time');
    const { view } = await appFrames(page, running.origin);
    await view.waitForSelector('#get-time-btn');
    await view.click('#get-time-btn');
    await expect.poll(() => view.textContent('#server-time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Its "Send message" (ext-apps' App.sendMessage) shows under the view.
    await view.click('#send-message-btn');
    const messages = page
      .getByRole('region', { name: 'From the view' })
      .getByRole('list', { name: 'Messages' });
    await expect.poll(() => messages.textContent()).toBe('userThis is message text.');
    await page.close();
  });

  it("against a host (--config), the view calls its own server's app-only tool by its name there", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-apps-host-'));
    try {
      const config = path.join(dir, 'mcp.json');
      const demoServer = { command: DEMO_STDIO[0], args: DEMO_STDIO.slice(1), cwd: repoRoot };
      // Two servers with the same tools: the catalogue namespaces them, the view still says tally_add.
      await writeFile(config, JSON.stringify({ mcpServers: { one: demoServer, two: demoServer } }));
      const { page, running } = await open(['--config', config]);
      await callTool(page, 'Show tally one', 'one__show_tally');
      // The host asks the person before each tool call runs.
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.textContent()).toContain('show_tally');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const { view } = await appFrames(page, running.origin);
      await expect.poll(() => view.textContent('#count')).toBe('0');
      await view.click('#add');
      await expect.poll(() => dialog.textContent()).toContain('tally_add');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => view.textContent('#count')).toBe('1');
      await page.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
