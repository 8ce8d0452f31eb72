/**
 * `mcpkit console` against hostile pages (issue 32; the Inspector's CVE-2025-49596 was a web page
 * making its proxy start commands). The console is started as a person starts it; then, in the
 * same Chromium, a page on another origin tries to drive its backend and to read its answers,
 * with no token, with guessed tokens and even with the real one, by fetch (CORS and no-cors), a
 * form post, an EventSource and a frame; a DNS-rebinding page (another host name resolving to
 * 127.0.0.1) tries too. Each attempt fails, and the server behind the console never sees a call.
 * The one route another origin reaches by design, the OAuth redirect back to `/callback`, neither
 * completes nor forges a login for a hostile page, and tells it nothing.
 * Against a console of a host (`--config`), a hostile page and bare requests try to restart one of
 * its servers (`restartServer`), and the server is not restarted.
 *
 * Needs /usr/bin/chromium (scripts/install-chromium.sh); MCPKIT_SKIP_BROWSER=1 skips on purpose.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildConsoleUi,
  DEMO_STDIO,
  launchChromium,
  type RunningConsoleCli,
  runConsoleInProcess,
  startConsoleCli,
} from './support/consoleRun.js';
import { startProtectedDemo } from './support/devLogin.js';
import { repoRoot } from './support/officialSchema.js';

const skip = process.env.MCPKIT_SKIP_BROWSER === '1';
if (skip) console.warn('tests/browser-console-security.test.ts skipped: MCPKIT_SKIP_BROWSER=1 is set');

/** What the hostile page runs: every way it has to reach the console, each outcome recorded. */
function hostileScript(consoleOrigin: string, token: string): string {
  return `
  const target = ${JSON.stringify(consoleOrigin)};
  const token = ${JSON.stringify(token)};
  const call = JSON.stringify({ callId: 'evil', name: 'echo', arguments: { text: 'pwned' } });
  const outcome = (promise) => promise.then(
    async (response) => ({ type: response.type, status: response.status, body: await response.text().catch(() => 'unreadable') }),
    (error) => ({ error: String(error.name) }),
  );
  window.results = (async () => ({
    corsNoToken: await outcome(fetch(target + '/api/callTool', { method: 'POST', headers: { 'content-type': 'application/json' }, body: call })),
    corsRealToken: await outcome(fetch(target + '/api/callTool', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': token }, body: call })),
    corsGuessedToken: await outcome(fetch(target + '/api/callTool', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': 'guess' }, body: call })),
    noCorsRealToken: await outcome(fetch(target + '/api/callTool?token=' + token, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: call })),
    noCorsGuessedTokens: await Promise.all(['a', 'guess', token.slice(0, -1)].map((guess) =>
      outcome(fetch(target + '/api/callTool?token=' + guess, { method: 'POST', mode: 'no-cors', body: call })))),
    readState: await outcome(fetch(target + '/api/state?token=' + token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })),
    readPage: await outcome(fetch(target + '/?token=' + token)),
    events: await new Promise((resolve) => {
      const source = new EventSource(target + '/api/events?token=' + token);
      source.onmessage = () => resolve('read an event');
      source.addEventListener('log', () => resolve('read a log event'));
      source.onerror = () => { source.close(); resolve('error'); };
    }),
    formPost: await new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame);
      const form = document.createElement('form');
      form.method = 'POST';
      form.enctype = 'text/plain';
      form.target = 'sink';
      form.action = target + '/api/callTool?token=' + token;
      const input = document.createElement('input');
      input.name = call.slice(0, -1) + ', "x": "';
      input.value = '"}';
      form.append(input);
      document.body.append(form);
      frame.onload = () => {
        const doc = frame.contentDocument;
        resolve(doc ? 'read: ' + doc.body.textContent : 'unreadable');
      };
      form.submit();
    }),
    frame: await new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.src = target + '/?token=' + token;
      document.body.append(frame);
      frame.onload = () => {
        const doc = frame.contentDocument;
        resolve(doc ? 'read: ' + doc.body.textContent : 'unreadable');
      };
    }),
  }))();`;
}

/** What a hostile page runs against a host's console: a restart of one of its servers, real token and all. */
function hostileRestartScript(consoleOrigin: string, token: string): string {
  return `
  const target = ${JSON.stringify(consoleOrigin)};
  const token = ${JSON.stringify(token)};
  const body = JSON.stringify({ server: 'demo' });
  const outcome = (promise) => promise.then(
    async (response) => ({ type: response.type, status: response.status, body: await response.text().catch(() => 'unreadable') }),
    (error) => ({ error: String(error.name) }),
  );
  window.results = (async () => ({
    cors: await outcome(fetch(target + '/api/restartServer', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': token }, body })),
    noCors: await outcome(fetch(target + '/api/restartServer?token=' + token, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body })),
  }))();`;
}

/** A POST to the console from outside a browser, with exactly `headers`: resolves with the status and body. */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body = '{}',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(skip)('mcpkit console against hostile pages', { timeout: 120_000 }, () => {
  let running: RunningConsoleCli;
  /** A console against a host (`--config`), for the operations only a host has. */
  let hostRunning: RunningConsoleCli;
  let dir: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let hostile: Server;
  let hostileOrigin: string;

  beforeAll(async () => {
    buildConsoleUi();
    running = await startConsoleCli(['--', ...DEMO_STDIO]);
    dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-security-'));
    const config = path.join(dir, 'mcp.json');
    const demo = { command: DEMO_STDIO[0], args: DEMO_STDIO.slice(1), cwd: repoRoot };
    await writeFile(config, JSON.stringify({ mcpServers: { demo } }));
    hostRunning = await startConsoleCli(['--config', config]);
    browser = await launchChromium(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
    hostile = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const script =
        req.url === '/host'
          ? hostileRestartScript(hostRunning.origin, hostRunning.token)
          : hostileScript(running.origin, running.token);
      res.end(`<!doctype html><title>hostile</title><script>${script}</script>`);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  }, 90_000);

  afterAll(async () => {
    await running?.stop();
    await hostRunning?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    await browser?.close();
    await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()));
  });

  /** The console's own page, open in the same browser as the hostile one. */
  async function consolePage(): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(running.url);
    await page.getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
    return page;
  }

  it('a page on another origin can neither drive the backend nor read its answers, token or not', async () => {
    const own = await consolePage();
    const page = await browser.context.newPage();
    await page.goto(`${hostileOrigin}/`);
    const results = (await page.evaluate(
      () => (globalThis as unknown as { results: Promise<unknown> }).results,
    )) as Record<string, any>;
    // CORS requests: the preflight is refused, so the browser never sends them.
    expect(results.corsNoToken).toEqual({ error: 'TypeError' });
    expect(results.corsRealToken).toEqual({ error: 'TypeError' });
    expect(results.corsGuessedToken).toEqual({ error: 'TypeError' });
    expect(results.readState).toEqual({ error: 'TypeError' });
    expect(results.readPage).toEqual({ error: 'TypeError' });
    // no-cors requests reach the backend, which refuses them (Origin, Sec-Fetch-Site); the page gets
    // an opaque response it cannot read.
    expect(results.noCorsRealToken).toEqual({ type: 'opaque', status: 0, body: '' });
    for (const guess of results.noCorsGuessedTokens)
      expect(guess).toEqual({ type: 'opaque', status: 0, body: '' });
    expect(results.events).toBe('error');
    // A form post and a frame load cross-origin documents the page cannot look into.
    expect(results.formPost).toBe('unreadable');
    expect(results.frame).toBe('unreadable');

    // The server behind the console never saw a call: the console's own log has no "pwned".
    await own.getByRole('tab', { name: /Protocol log/ }).click();
    await own.getByLabel('Filter').fill('pwned');
    await expect
      .poll(() => own.getByRole('status').filter({ hasText: 'messages' }).textContent())
      .toMatch(/^0 of \d+ messages$/);
    // …while the page itself still works.
    await own.getByRole('tab', { name: /Tools/ }).click();
    await own.getByRole('navigation', { name: 'Tools' }).getByRole('button', { name: /^Echo/ }).click();
    await own.getByLabel('text', { exact: true }).fill('still serving');
    await own.getByRole('button', { name: 'Call echo' }).click();
    await expect.poll(() => own.locator('.result pre.text-block').textContent()).toBe('still serving');
  });

  it('a DNS-rebinding page (another name for 127.0.0.1) is refused for the wrong Host', async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`http://rebind.test:${running.port}/?token=${running.token}`);
    expect(response?.status()).toBe(421);
    expect(await page.textContent('body')).toContain('Wrong Host header');
    const fromPage = await page.evaluate(async (token) => {
      const answer = await fetch('/api/state', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': token },
        body: '{}',
      });
      return answer.status;
    }, running.token);
    expect(fromPage).toBe(421);
  });

  it('the console page itself is refused with a wrong token, and the page without one', async () => {
    const own = await consolePage();
    const status = await own.evaluate(async () => {
      const answer = await fetch('/api/state', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mcpkit-console-token': 'guess' },
        body: '{}',
      });
      return answer.status;
    });
    expect(status).toBe(403);
    const bare = await browser.context.newPage();
    expect((await bare.goto(`${running.origin}/`))?.status()).toBe(403);
  });

  it('a request with a wrong Host, a foreign Origin or no token is refused outside a browser too', async () => {
    const send = async (headers: Record<string, string>) =>
      (await post(running.port, '/api/state', headers)).status;
    const token = { 'x-mcpkit-console-token': running.token };
    expect(await send({ ...token, host: `evil.example:${running.port}` })).toBe(421);
    expect(await send({ ...token, host: `127.0.0.1:${running.port + 1}` })).toBe(421);
    expect(await send({ ...token, origin: 'http://evil.example' })).toBe(403);
    expect(await send({ ...token, 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await send({})).toBe(403);
    expect(await send({ 'x-mcpkit-console-token': `${running.token}x` })).toBe(403);
    expect(await send(token)).toBe(200);
  });

  it("restartServer (a host's): a hostile page cannot restart a server, nor can a request without the token, Host or Origin", async () => {
    const { port } = hostRunning;
    const token = { 'x-mcpkit-console-token': hostRunning.token };
    const demoState = async () => {
      const { body } = await post(port, '/api/state', token);
      return JSON.parse(body).result.servers.find((server: { server: string }) => server.server === 'demo');
    };
    await expect.poll(async () => (await demoState())?.state, { timeout: 30_000 }).toBe('ready');
    const page = await browser.context.newPage();
    await page.goto(`${hostileOrigin}/host`);
    const results = (await page.evaluate(
      () => (globalThis as unknown as { results: Promise<unknown> }).results,
    )) as Record<string, any>;
    expect(results.cors).toEqual({ error: 'TypeError' });
    expect(results.noCors).toEqual({ type: 'opaque', status: 0, body: '' });
    const restart = (headers: Record<string, string>) =>
      post(port, '/api/restartServer', headers, JSON.stringify({ server: 'demo' }));
    expect((await restart({ ...token, host: `evil.example:${port}` })).status).toBe(421);
    expect((await restart({ ...token, origin: 'http://evil.example' })).status).toBe(403);
    expect((await restart({ ...token, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await restart({})).status).toBe(403);
    expect((await restart({ 'x-mcpkit-console-token': `${hostRunning.token}x` })).status).toBe(403);
    // None of them restarted it…
    expect(await demoState()).toMatchObject({ state: 'ready', restarts: 0 });
    // …while the console's own token does (so the refusals above were the guard's).
    const own = await restart(token);
    expect(own.status).toBe(200);
    expect(await demoState()).toMatchObject({ state: 'ready', restarts: 1 });
  });

  it('the login callback: a page on another origin can neither complete nor forge a login, nor read anything', async () => {
    const stack = await startProtectedDemo();
    const config = await mkdtemp(path.join(tmpdir(), 'mcpkit-console-security-'));
    const login = runConsoleInProcess([stack.mcpUrl], {
      openBrowser: async () => false,
      env: { XDG_CONFIG_HOME: config },
    });
    try {
      await expect.poll(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(login.stdout())).toBe(true);
      const url = new URL(/^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(login.stdout())![1]!);
      const own = await browser.context.newPage();
      await own.goto(url.href);
      const link = own.getByRole('link', { name: 'Log in', exact: true });
      const waiting = await link.getAttribute('href');
      const attack = `${url.origin}/callback?code=evil&state=guess`;
      const page = await browser.context.newPage();
      await page.goto(`${hostileOrigin}/`);
      const results = await page.evaluate(async (target) => {
        const outcome = (promise: Promise<Response>) =>
          promise.then(
            async (response) => ({
              type: response.type,
              status: response.status,
              body: await response.text(),
            }),
            (error: Error) => ({ error: error.name }),
          );
        const frame = await new Promise((resolve) => {
          const element = document.createElement('iframe');
          element.src = target;
          document.body.append(element);
          element.onload = () => resolve(element.contentDocument ? 'readable' : 'unreadable');
        });
        return {
          cors: await outcome(fetch(target)),
          noCors: await outcome(fetch(target, { mode: 'no-cors' })),
          frame,
        };
      }, attack);
      expect(results.cors).toEqual({ error: 'TypeError' });
      expect(results.noCors).toEqual({ type: 'opaque', status: 0, body: '' });
      expect(results.frame).toBe('unreadable');
      // A top-level navigation (what the authorization server's redirect is) with a guessed state.
      const navigation = await page.goto(attack);
      expect(navigation?.status()).toBe(400);
      const shown = await page.textContent('body');
      expect(shown).toContain('Not the login the console is waiting for');
      expect(shown).not.toContain(url.searchParams.get('token'));
      // The person's login still waits, unchanged, and the console is not connected.
      expect(await link.getAttribute('href')).toBe(waiting);
      expect(await own.getByText('connected', { exact: true }).count()).toBe(0);
      // Outside a browser: the callback checks the Host like every route.
      const wrongHost = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(url.port),
            path: '/callback?state=x',
            headers: { host: 'evil.example' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(wrongHost).toBe(421);
    } finally {
      expect(await login.stop()).toBe(0);
      await stack.stop();
      await rm(config, { recursive: true, force: true });
    }
  });
});
