/**
 * Issue 30: the kernel's slots are filled by the composition root only when a plug-in is asked
 * for. A server without middleware has neither chain (its dispatch and sends take the plain
 * paths, at no cost); `use` fills the receiving slot, `useSending` the sending seam, with one
 * object; the era claims a request by its one check.
 */
import { createInMemoryPair, type IncomingRequest } from '@mcpkit/core';
import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { envelope } from './support/modernWire.js';

function server(): McpServer {
  const made = new McpServer(
    { name: 'slots', version: '1.0.0' },
    { resources: resourceSupport, prompts: promptSupport },
  );
  made.tool('echo', { description: 'Echoes' }, () => 'hi');
  made.resource('mem://logo', { name: 'logo' }, () => 'png');
  made.prompt('greet', {}, () => 'Hello');
  return made;
}

const request = (method: string, params?: Record<string, unknown>) =>
  ({ method, params }) as unknown as IncomingRequest;

describe('the kernel slots (issue 30)', () => {
  it('a server without middleware fills neither slot, even with sessions open', async () => {
    const plain = server();
    const [, serverSide] = createInMemoryPair();
    plain.connect(serverSide);
    expect(plain.receiving).toBeUndefined();
    expect(plain.sending).toBeUndefined();
    expect(plain.hasMiddleware).toBe(false);
    await plain.close();
  });

  it('use fills the receiving slot and useSending the sending seam, with one chains object', () => {
    const withMiddleware = server();
    withMiddleware.use((_ctx, next) => next());
    expect(withMiddleware.receiving).toBeDefined();
    expect(withMiddleware.sending).toBeUndefined();
    withMiddleware.useSending((_ctx, next) => next());
    // The seam is the chains' own send: the same object fills both.
    expect(withMiddleware.sending).toBe((withMiddleware.receiving as { send?: unknown }).send);
  });

  it('useSending alone leaves the receiving slot empty (dispatch stays one lookup)', () => {
    const sendingOnly = server();
    sendingOnly.useSending((_ctx, next) => next());
    expect(sendingOnly.sending).toBeDefined();
    expect(sendingOnly.receiving).toBeUndefined();
    expect(sendingOnly.hasMiddleware).toBe(false);
  });

  it('the era claims server/discover and enveloped requests, and nothing else', () => {
    const era = server().era;
    expect(era.claims(request('server/discover'))).toBe(true);
    expect(era.claims(request('tools/call', { name: 'echo', _meta: envelope() }))).toBe(true);
    expect(era.claims(request('tools/call', { name: 'echo' }))).toBe(false);
    expect(era.claims(request('initialize', { protocolVersion: '2025-11-25' }))).toBe(false);
  });

  it('the era installs its own methods, which setRequestHandler then refuses', () => {
    const made = server();
    expect(made.requestHandler('server/discover')).toBeTypeOf('function');
    expect(made.requestHandler('subscriptions/listen')).toBeTypeOf('function');
    expect(() => made.setRequestHandler('server/discover' as 'ping', () => ({}))).toThrow(
      /the server itself/,
    );
  });
});
