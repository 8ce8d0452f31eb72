/**
 * Issue 29, item 1: every failure of one upstream stays that upstream's failure. Each mode of the
 * misbehaving server (issue 20's fixture, with `banner` added: a line on stdout that is not
 * JSON-RPC, which used to kill the hosting process with `paced.parseError is not a function`)
 * runs as one stdio upstream of an `McpHost`, and then of a gateway, beside a quiet upstream. All
 * of them are called at once; the host never dies (vitest fails the run on an uncaught error),
 * the quiet upstream keeps answering throughout, and a bad one that broke its stream's limits is
 * reported restarting with the limit it broke. Limits and timeouts are small so it runs in seconds.
 */
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { type CallToolResult, createInMemoryPair, McpError } from '@mcpkit/core';
import type { McpHost, McpHostOptions, ServerEntry, StateChange } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISBEHAVIOR_MODES, type MisbehaviorMode } from './fixtures/misbehavingServer.js';
import { fixtureCommand } from './support/tsFixture.js';

const QUIET = fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url));
const base = { env: {}, disabled: false, autoApprove: ['*'] };

/** What each mode does to the call of its tool, as the host sees it. */
const EXPECTED: Record<MisbehaviorMode, 'answers' | 'restarts' | 'fails' | 'unlisted'> = {
  'huge-result': 'restarts', // past maxMessageBytes: the connection closes, the server restarts
  'endless-message': 'restarts',
  'deep-json': 'restarts', // past maxJsonDepth
  'request-flood': 'fails', // stops reading: cut at maxWriteQueueBytes, or the call times out first
  'never-answers': 'fails', // the entry's timeout
  'notification-flood': 'fails', // paced, its progress resets the timeout: then maxTotalTimeout
  'repeating-cursor': 'unlisted', // its tools cannot be listed: its state says why
  'endless-cursor': 'unlisted',
  'unknown-ids': 'answers', // the stray and the duplicate answers are dropped
  'prototype-keys': 'answers',
  'cross-origin-redirect': 'answers', // HTTP-only modes are polite over stdio
  'get-400': 'answers',
  banner: 'answers', // the banner lines are reported, not fatal
  polite: 'answers',
};

/**
 * A flood of progress keeps a call alive (each notification resets its timeout) until its total
 * limit, which is short here.
 */
const CALL = { maxTotalTimeout: 4000 };

const LIMITS = /maxMessageBytes|maxJsonDepth|maxWriteQueueBytes/;

function entries(): ServerEntry[] {
  const quiet: ServerEntry = {
    ...base,
    kind: 'stdio',
    name: 'quiet',
    command: process.execPath,
    args: [QUIET],
  };
  const bad = MISBEHAVIOR_MODES.map((mode): ServerEntry => {
    const { command, args, cwd } = fixtureCommand('misbehaving-stdio.ts', mode);
    return { ...base, kind: 'stdio', name: `bad-${mode}`, command, args, cwd, timeoutMs: 3000 };
  });
  return [quiet, ...bad];
}

function hostOptions(): McpHostOptions {
  return {
    servers: entries(),
    connector: nodeConnector({
      limits: { maxMessageBytes: 1024 * 1024, maxJsonDepth: 64, maxWriteQueueBytes: 64 * 1024 },
    }),
    restart: { initialDelayMs: 200, maxDelayMs: 1000 },
  };
}

/** Calls `call(mode)` for every mode at once, checking the quiet upstream while they run. */
async function everyModeBeside(
  call: (mode: MisbehaviorMode) => Promise<unknown>,
  quiet: () => Promise<string>,
): Promise<Map<MisbehaviorMode, PromiseSettledResult<unknown>>> {
  const calls = Promise.allSettled(MISBEHAVIOR_MODES.map(call));
  const answers: string[] = [];
  for (let i = 0; i < 3; i++) answers.push(await quiet());
  const settled = await calls;
  answers.push(await quiet());
  expect(answers).toEqual(['still here', 'still here', 'still here', 'still here']);
  return new Map(MISBEHAVIOR_MODES.map((mode, index) => [mode, settled[index]!]));
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

let gateway: McpGateway | undefined;
let client: McpClient | undefined;
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

describe('every misbehaving upstream stays its own failure (issue 29)', () => {
  // One set of upstream processes (a gateway sharing its host), used through McpHost's API and
  // then through the gateway's downstream side: fifteen processes, not thirty.
  let host: McpHost;
  const changes: StateChange[] = [];

  beforeAll(async () => {
    gateway = createGateway({ host: hostOptions(), upstreams: 'shared' });
    host = gateway.hosts()[0]!;
    host.onStateChange((change) => changes.push(change));
    // Started one after another: fifteen at once on a loaded machine could outlast the
    // handshake's timeout, which is short here so that the modes that never answer end soon.
    for (const entry of entries()) await host.client(entry.name);
  }, 120_000);

  it('as an upstream of McpHost, beside a quiet one', async () => {
    const names = (await host.tools()).map((tool) => tool.name);
    expect(names).toContain('quiet__echo');
    const outcomes = await everyModeBeside(
      (mode) => host.callTool(`bad-${mode}__echo`, { text: mode }, CALL),
      async () => textOf(await host.callTool('quiet__echo', { text: 'still here' })),
    );
    for (const [mode, outcome] of outcomes) {
      const expected = EXPECTED[mode];
      const server = `bad-${mode}`;
      if (expected === 'answers') {
        expect(outcome.status, mode).toBe('fulfilled');
        continue;
      }
      expect(outcome.status, mode).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      if (expected === 'restarts') {
        expect(reason.name, mode).toBe('ServerUnavailableError');
        expect(reason.message, mode).toContain(`Server "${server}" died while "tools/call" was in flight`);
        const restart = changes.find(
          (change) => change.server === server && change.state === 'starting' && change.error,
        );
        expect(restart?.error?.message, mode).toMatch(LIMITS);
      } else if (expected === 'unlisted') {
        expect(reason, mode).toBeInstanceOf(McpError);
        const state = host.status().find((status) => status.server === server);
        expect(state?.lastError, mode).toMatch(/^Its tools could not be listed: /);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(host.status().find((status) => status.server === 'quiet')).toMatchObject({
      state: 'ready',
      restarts: 0,
    });
  }, 60_000);

  it('as an upstream of a gateway, beside a quiet one: the client gets errors naming the server, no internals', async () => {
    const [clientSide, gatewaySide] = createInMemoryPair();
    gateway!.connect(gatewaySide);
    client = new McpClient({ name: 'downstream', version: '1.0.0' }, { requestTimeout: 30_000 });
    await client.connect(clientSide);
    const downstream = client;
    expect((await downstream.tools()).map((tool) => tool.name)).toContain('quiet__echo');
    const outcomes = await everyModeBeside(
      (mode) => downstream.callTool(`bad-${mode}__echo`, { text: mode }, CALL),
      async () => textOf(await downstream.callTool('quiet__echo', { text: 'still here' })),
    );
    for (const [mode, outcome] of outcomes) {
      const expected = EXPECTED[mode];
      if (expected === 'answers') {
        expect(outcome.status, mode).toBe('fulfilled');
        expect((outcome as PromiseFulfilledResult<CallToolResult>).value.isError, mode).toBeFalsy();
      } else if (expected === 'restarts') {
        // A tool error the model reads: the server's name, not its command line.
        const result = (outcome as PromiseFulfilledResult<CallToolResult>).value;
        expect(result?.isError, mode).toBe(true);
        expect(textOf(result), mode).toBe(
          `Server "bad-${mode}" stopped while the request was in flight; it is being restarted, so retry`,
        );
      } else {
        const text = outcome.status === 'rejected' ? String(outcome.reason) : textOf(outcome.value);
        expect(text, mode).not.toContain(process.execPath);
        expect(outcome.status === 'rejected' || (outcome.value as CallToolResult).isError, mode).toBe(true);
      }
    }
    // The gateway still lists, and the quiet upstream was never restarted.
    expect((await downstream.tools()).map((tool) => tool.name)).toContain('quiet__echo');
    expect(host.status().find((status) => status.server === 'quiet')).toMatchObject({
      state: 'ready',
      restarts: 0,
    });
  }, 60_000);
});
