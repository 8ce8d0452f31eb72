import { describe, expect, it } from 'vitest';
import { webRequestView } from './requestView.js';
import { createHostGuard, splitHost } from './security.js';

function request(headers: Record<string, string>, url = 'http://127.0.0.1/mcp') {
  return webRequestView(new Request(url, { headers }));
}

describe('splitHost', () => {
  it.each([
    ['localhost', { name: 'localhost', port: '' }],
    ['LocalHost:3000', { name: 'localhost', port: '3000' }],
    ['127.0.0.1:80', { name: '127.0.0.1', port: '80' }],
    ['[::1]', { name: '[::1]', port: '' }],
    ['[::1]:8080', { name: '[::1]', port: '8080' }],
  ])('%s', (host, parts) => {
    expect(splitHost(host)).toEqual(parts);
  });

  it.each(['', ':80', 'a:b', 'a:', 'a:123456', '[::1', '[::1]x', '[::1]:', 'x'.repeat(400), 'a:1:2'])(
    'rejects %j',
    (host) => {
      expect(splitHost(host)).toBeUndefined();
    },
  );
});

describe('createHostGuard', () => {
  it('allows loopback names on any port by default and rejects others', () => {
    const guard = createHostGuard({});
    for (const host of ['localhost', 'localhost:1', '127.0.0.1:3000', '[::1]:3000']) {
      expect(guard.check(request({ host })), host).toBeUndefined();
    }
    for (const host of [
      'evil.example.com',
      'evil.example.com:3000',
      '127.0.0.2',
      'localhost.evil',
      '0.0.0.0:80',
      '[::2]',
    ]) {
      expect(guard.check(request({ host })), host).toBe('host');
    }
  });

  it('falls back to the URL when the Host header is missing', () => {
    const guard = createHostGuard({});
    expect(guard.check(request({}, 'http://localhost:9/x'))).toBeUndefined();
    expect(guard.check(request({}, 'http://evil.example/x'))).toBe('host');
  });

  it('checks Origin only when present, by full origin or by name', () => {
    const guard = createHostGuard({ allowedOrigins: ['https://app.example.com', 'localhost'] });
    const host = { host: 'localhost:3000' };
    expect(guard.check(request(host))).toBeUndefined();
    expect(guard.check(request({ ...host, origin: 'https://app.example.com' }))).toBeUndefined();
    expect(guard.check(request({ ...host, origin: 'http://localhost:5173' }))).toBeUndefined();
    expect(guard.check(request({ ...host, origin: 'https://localhost' }))).toBeUndefined();
    for (const origin of [
      'http://app.example.com',
      'https://app.example.com:444',
      'null',
      'file:///x',
      'chrome-extension://abc',
      'not a url',
    ]) {
      expect(guard.check(request({ ...host, origin })), origin).toBe('origin');
    }
  });

  it('accepts exact host:port entries and can be turned off', () => {
    const exact = createHostGuard({ allowedHosts: ['mcp.example.com:8443'] });
    expect(exact.check(request({ host: 'mcp.example.com:8443' }))).toBeUndefined();
    expect(exact.check(request({ host: 'mcp.example.com:8444' }))).toBe('host');
    const open = createHostGuard({ allowedHosts: false, allowedOrigins: false });
    expect(open.check(request({ host: 'anything', origin: 'http://evil' }))).toBeUndefined();
  });
});
