import { describe, expect, it } from 'vitest';
import { McpServer } from '../mcpServer.js';
import { Server } from '../server.js';

const info = { name: 'options', version: '1.0.0' };

describe('requestStateKeys and requestStateLimits as server options', () => {
  it('are accepted by Server and McpServer, and build one runner per server definition', () => {
    const server = new McpServer(info, {
      requestStateKeys: ['n'.repeat(32), new Uint8Array(32)],
      requestStateLimits: { maxRounds: 3 },
    });
    expect(server.inputRoundRunner()).toBe(server.inputRoundRunner());
    expect(server.inputRoundRunner().sealer.limits.maxRounds).toBe(3);
    expect(
      new Server(info, { requestStateKeys: ['n'.repeat(32)] }).inputRoundRunner().sealer.limits.ttlMs,
    ).toBe(600_000);
  });

  it('fail at construction, not on the first retry, and never echo the secret', () => {
    expect(() => new McpServer(info, { requestStateKeys: ['too-short-secret'] })).toThrow(
      'requestStateKeys[0] must be a string or Uint8Array of at least 32 bytes',
    );
    expect(() => new Server(info, { requestStateKeys: [] })).toThrow(/non-empty array/);
    expect(() => new McpServer(info, { requestStateLimits: { ttlMs: -1 } })).toThrow(
      'requestStateLimits.ttlMs must be a positive integer',
    );
  });
});
