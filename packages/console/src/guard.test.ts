import { describe, expect, it } from 'vitest';
import { RequestGuard, randomToken, TOKEN_HEADER } from './guard.js';

const guard = new RequestGuard(4711, 'secret-token');
const url = 'http://127.0.0.1:4711/api/state';

function status(headers: Record<string, string>, target = url, needsToken = true): number | undefined {
  return guard.refusal(new Request(target, { headers }), needsToken)?.status;
}

describe('RequestGuard', () => {
  it("lets through the console's own page: right Host, same origin, the token", () => {
    expect(status({ host: '127.0.0.1:4711', [TOKEN_HEADER]: 'secret-token' })).toBeUndefined();
    expect(
      status({ host: 'localhost:4711', origin: 'http://localhost:4711', [TOKEN_HEADER]: 'secret-token' }),
    ).toBeUndefined();
    expect(
      status({ host: '127.0.0.1:4711', 'sec-fetch-site': 'same-origin' }, `${url}?token=secret-token`),
    ).toBeUndefined();
    // The page's assets hold no secret: no token needed, the Host and Origin checks still apply.
    expect(
      status({ host: '127.0.0.1:4711' }, 'http://127.0.0.1:4711/assets/index.js', false),
    ).toBeUndefined();
    expect(status({ host: 'evil.example:4711' }, 'http://127.0.0.1:4711/assets/index.js', false)).toBe(421);
  });

  it('refuses a rebinding Host, a foreign Origin, a cross-site fetch, a missing or wrong token', () => {
    const token = { [TOKEN_HEADER]: 'secret-token' };
    expect(status({ ...token, host: 'evil.example:4711' })).toBe(421);
    expect(status({ ...token, host: '127.0.0.1:4712' })).toBe(421);
    expect(status({ ...token, host: '127.0.0.1:4711', origin: 'http://evil.example' })).toBe(403);
    expect(status({ ...token, host: '127.0.0.1:4711', origin: 'null' })).toBe(403);
    expect(status({ ...token, host: '127.0.0.1:4711', 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(status({ ...token, host: '127.0.0.1:4711', 'sec-fetch-site': 'same-site' })).toBe(403);
    expect(status({ host: '127.0.0.1:4711' })).toBe(403);
    expect(status({ host: '127.0.0.1:4711', [TOKEN_HEADER]: 'secret-tokeN' })).toBe(403);
    expect(status({ host: '127.0.0.1:4711', [TOKEN_HEADER]: 'secret-token-longer' })).toBe(403);
  });

  it('makes tokens of 256 random bits, base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
