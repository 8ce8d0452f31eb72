/**
 * Resumability under random disconnects: calls whose SSE connection is dropped at a random point
 * (and whose resumed GET is sometimes dropped again) must deliver every notification and the
 * response exactly once, in order, once the client resumes with `Last-Event-ID`.
 */
import { serve } from '@mcpkit/node/http';
import { Server } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Json, RawClient, sseEvents } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads events until the response to `id` arrives or `budget` message events were read. */
async function readUntil(
  response: Response,
  id: string,
  budget: number,
  state: { lastEventId: string | undefined; messages: Json[] },
): Promise<'answered' | 'dropped' | 'ended'> {
  let read = 0;
  for await (const event of sseEvents(response)) {
    if (event.id !== undefined) state.lastEventId = event.id;
    if (event.data === '') continue;
    const message = JSON.parse(event.data) as Json;
    state.messages.push(message);
    if (message.id === id && !('method' in message)) return 'answered';
    if (++read >= budget) return 'dropped'; // leaving the loop cancels the body: a disconnect
  }
  return 'ended';
}

it('drops the SSE connection at random points 100 times; every message arrives exactly once', async () => {
  const errors: Error[] = [];
  const server = new Server(
    { name: 'resume', version: '1' },
    { capabilities: { tools: {}, logging: {} }, onError: (e) => errors.push(e) },
  );
  let completed = 0;
  server.setRequestHandler('tools/call', async (params, ctx) => {
    const count = Number((params.arguments as Json).count);
    for (let i = 0; i < count; i++) {
      ctx.log.info({ i });
      // Vary the pacing so drops land before, between and after writes.
      if (i % 3 === 0) await sleep(1);
      else await new Promise((resolve) => setImmediate(resolve));
    }
    completed++;
    return { content: [{ type: 'text', text: `sent ${count}` }] };
  });
  const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
  const clients = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const client = new RawClient(served.url);
      await client.connect();
      return client;
    }),
  );

  type Plan = { count: number; firstDrop: number; laterDrops: number[] };
  const plans = fc.sample(
    fc.record({
      count: fc.integer({ min: 0, max: 12 }),
      // How many message events to read before dropping; beyond `count` means no drop.
      firstDrop: fc.integer({ min: 0, max: 10 }),
      laterDrops: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    }),
    { numRuns: 100, seed: 1699 },
  ) as Plan[];

  let resumes = 0;
  const runPlan = async (client: RawClient, plan: Plan, index: number) => {
    const id = `call-${index}`;
    const state = { lastEventId: undefined as string | undefined, messages: [] as Json[] };
    const post = await client.post({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'chatty', arguments: { count: plan.count } },
    });
    expect(post.status).toBe(200);
    // A budget of 0 drops right after the priming event.
    let outcome =
      plan.firstDrop === 0
        ? await dropAfterPriming(post, state)
        : await readUntil(post, id, plan.firstDrop, state);
    const later = [...plan.laterDrops];
    while (outcome !== 'answered') {
      expect(state.lastEventId).toBeDefined();
      resumes++;
      const get = await client.get({ 'last-event-id': state.lastEventId! });
      expect(get.status).toBe(200);
      outcome = await readUntil(get, id, later.shift() ?? Number.POSITIVE_INFINITY, state);
    }
    const logs = state.messages
      .filter((m) => m.method === 'notifications/message')
      .map((m) => m.params.data.i);
    const responses = state.messages.filter((m) => m.id === id);
    expect(logs).toEqual(Array.from({ length: plan.count }, (_, i) => i));
    expect(responses).toEqual([
      { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `sent ${plan.count}` }] } },
    ]);
    expect(state.messages).toHaveLength(plan.count + 1);
  };

  await Promise.all(
    clients.map(async (client, lane) => {
      for (let index = lane; index < plans.length; index += clients.length)
        await runPlan(client, plans[index]!, index);
    }),
  );
  expect(completed).toBe(100);
  expect(resumes).toBeGreaterThan(50);
  expect(errors).toEqual([]);
  await served.close();
});

async function dropAfterPriming(
  response: Response,
  state: { lastEventId: string | undefined; messages: Json[] },
): Promise<'dropped'> {
  const events = sseEvents(response);
  const priming = await events.next();
  expect(priming.value).toMatchObject({ data: '' });
  state.lastEventId = priming.value!.id;
  await events.return(undefined);
  return 'dropped';
}
