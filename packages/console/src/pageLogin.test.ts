import { describe, expect, it } from 'vitest';
import { EventHub } from './eventHub.js';
import { PageLogin } from './pageLogin.js';

const REDIRECT = 'http://127.0.0.1:4711/callback';

function authorizationUrl(state: string): URL {
  const url = new URL('http://127.0.0.1:9000/auth?response_type=code&client_id=c');
  url.searchParams.set('redirect_uri', REDIRECT);
  url.searchParams.set('state', state);
  return url;
}

/** The browser coming back from the authorization server: a top-level navigation. */
function back(query: string, headers: Record<string, string> = {}, method = 'GET'): Request {
  return new Request(`${REDIRECT}?${query}`, {
    method,
    headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', ...headers },
  });
}

describe('PageLogin (the login the console page starts)', () => {
  it('shows the waiting login, and hands the redirect with its state to it once', async () => {
    const hub = new EventHub();
    let loggedIn = 0;
    const login = new PageLogin(REDIRECT, hub, () => loggedIn++);
    const waiting = login.wait(authorizationUrl('s1'), 'HTTP 401 Unauthorized');
    expect(login.waiting()).toEqual([{ url: authorizationUrl('s1').href, reason: 'HTTP 401 Unauthorized' }]);
    const other = login.wait(authorizationUrl('s0'), undefined, 'files');
    expect(login.waiting()[1]).toEqual({ url: authorizationUrl('s0').href, server: 'files' });
    const answer = login.callback(back('code=abc&state=s1&iss=http%3A%2F%2F127.0.0.1%3A9000'));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Logged in');
    expect((await waiting).get('code')).toBe('abc');
    expect(loggedIn).toBe(1);
    expect(login.waiting()).toHaveLength(1);
    login.cancel();
    await expect(other).rejects.toThrow('cancelled');
    // The same redirect again (a reload, a replay) finds nothing waiting.
    expect(login.callback(back('code=abc&state=s1')).status).toBe(400);
    hub.close();
  });

  it('refuses a redirect without the state of a waiting login, and the login goes on waiting', async () => {
    const login = new PageLogin(REDIRECT, new EventHub());
    const waiting = login.wait(authorizationUrl('the-real-state'));
    for (const query of ['code=evil', 'code=evil&state=guess', 'code=evil&state=']) {
      const answer = login.callback(back(query));
      expect(answer.status).toBe(400);
      // Nothing of the request is echoed into the page.
      expect(await answer.text()).not.toContain('evil');
    }
    expect(login.waiting()[0]?.url).toContain('the-real-state');
    login.cancel();
    await expect(waiting).rejects.toThrow('The login was cancelled in the console');
  });

  it("refuses a script's fetch, a frame and a POST, even with the right state", async () => {
    let loggedIn = 0;
    const login = new PageLogin(REDIRECT, new EventHub(), () => loggedIn++);
    const waiting = login.wait(authorizationUrl('s2'));
    expect(login.callback(back('code=x&state=s2', { 'sec-fetch-mode': 'cors' })).status).toBe(403);
    expect(login.callback(back('code=x&state=s2', { 'sec-fetch-mode': 'no-cors' })).status).toBe(403);
    expect(login.callback(back('code=x&state=s2', { 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect(login.callback(back('code=x&state=s2', {}, 'POST')).status).toBe(405);
    expect(login.waiting()).toHaveLength(1);
    const answer = login.callback(back('error=access_denied&state=s2'));
    expect(await answer.text()).toContain('Login refused');
    expect((await waiting).get('error')).toBe('access_denied');
    expect(loggedIn).toBe(0); // refused: nothing to connect with
  });

  it('gives up the oldest login past sixteen waiting, and every one when the console closes', async () => {
    const login = new PageLogin(REDIRECT, new EventHub());
    const logins = Array.from({ length: 17 }, (_, index) => login.wait(authorizationUrl(`s${index}`)));
    await expect(logins[0]).rejects.toThrow('Another login replaced this one');
    expect(login.waiting()).toHaveLength(16);
    expect(login.waiting().at(-1)?.url).toContain('state=s16');
    login.close();
    for (const waiting of logins.slice(1)) await expect(waiting).rejects.toThrow('closing');
  });

  it('returns from untilConnectedOrWaiting when a login starts waiting, before the connection ends', async () => {
    const login = new PageLogin(REDIRECT, new EventHub());
    const connecting = new Promise<void>(() => {}); // a connection waiting for its login
    const returned = login.untilConnectedOrWaiting(connecting);
    const waiting = login.wait(authorizationUrl('s3'));
    await returned;
    login.close();
    await expect(waiting).rejects.toThrow();
    await login.untilConnectedOrWaiting(Promise.resolve()); // no login waiting: the connection decides
  });
});
