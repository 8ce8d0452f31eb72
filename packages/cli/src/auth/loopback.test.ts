import { describe, expect, it } from 'vitest';
import { startLoopbackRedirect } from './loopback.js';

describe('the loopback redirect listener', () => {
  it('listens on 127.0.0.1, ignores a redirect with another state, and resolves with the right one', async () => {
    const loopback = await startLoopbackRedirect();
    try {
      expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const back = loopback.wait(new URL('https://as.example/authorize?state=expected-state'));
      const forged = await fetch(`${loopback.redirectUri}?code=stolen&state=other`);
      expect(forged.status).toBe(400);
      expect(await forged.text()).not.toContain('stolen'); // nothing from the request is echoed
      const other = await fetch(new URL('/elsewhere', loopback.redirectUri));
      expect(other.status).toBe(404);
      const landed = await fetch(`${loopback.redirectUri}?code=the-code&state=expected-state`);
      expect(landed.status).toBe(200);
      expect(landed.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await landed.text()).toContain('You can close this page');
      expect((await back).get('code')).toBe('the-code');
    } finally {
      await loopback.close();
    }
  });

  it('takes the preferred port when it is free, and another one when it is taken', async () => {
    const first = await startLoopbackRedirect();
    const port = Number(new URL(first.redirectUri).port);
    const second = await startLoopbackRedirect(port); // taken by the first
    expect(second.redirectUri).not.toBe(first.redirectUri);
    await first.close();
    const third = await startLoopbackRedirect(port); // free again
    expect(third.redirectUri).toBe(first.redirectUri);
    await Promise.all([second.close(), third.close()]);
  });

  it('closing abandons a login still waiting', async () => {
    const loopback = await startLoopbackRedirect();
    const back = loopback.wait(new URL('https://as.example/authorize?state=s'));
    await loopback.close();
    await expect(back).rejects.toThrow('The login was abandoned.');
  });
});
