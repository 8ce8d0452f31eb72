/**
 * Server CPU per HTTP request without sockets: the echo server's Streamable HTTP handler (stateless,
 * JSON answers, as in the `http-stateless` and `http-2026` rows) is called through the lower-level
 * entry `@mcpkit/node/http` uses (`RAW_HTTP_HANDLER`), with prebuilt bodies and headers, in bursts
 * of 16 in flight. What is left is the handler's own work per request (classifying, envelope,
 * header checks, the session front, the engine, encoding), which is what separates the 2025
 * stateless path from the 2026-07-28 one; on a shared machine it resolves differences that the
 * req/s of the HTTP rows cannot. Eras run interleaved, several rounds, in one process.
 *
 *   node bench/http-cpu.mjs                      # both eras, 5 rounds of 50,000 requests each
 *   ERAS=2026 ROUNDS=1 N=200000 node --cpu-prof --cpu-prof-dir=/tmp/prof bench/http-cpu.mjs
 *   WEB=1 node bench/http-cpu.mjs                # through Request/Response instead (Bun, Deno, Workers)
 *   STATEFUL=1 ERAS=2025 node bench/http-cpu.mjs # 2025 calls on one session (the http-json rows)
 *
 * Prints `<era> <CPU µs per request>` per round, then the medians and their ratio.
 * Uses the built packages (`npm run build`).
 * @module
 */
import { createStreamableHttpHandler, RAW_HTTP_HANDLER } from '@mcpkit/server/http';
import {
  echoCallRequest,
  INITIALIZED_NOTIFICATION,
  initializeRequest,
  MODERN_ECHO_HEADERS,
  modernEchoCallRequest,
  PROBE_TEXT,
  PROTOCOL_VERSION,
} from './lib/echo.mjs';
import { BASE_HEADERS } from './lib/mcp-http.mjs';
import { createMcpkitEchoServer } from './servers/mcpkit-echo.mjs';

const N = Number(process.env.N ?? 50_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ERAS = (process.env.ERAS ?? '2025,2026').split(',');
const WEB = process.env.WEB === '1';
const STATEFUL = process.env.STATEFUL === '1';
const BURST = 16;
const URL_ = 'http://127.0.0.1:3000/mcp';

/** The headers and body of one era's echo call, as the load generator sends them. */
const SHAPES = {
  2025: {
    headers: { ...BASE_HEADERS, 'mcp-protocol-version': PROTOCOL_VERSION },
    request: echoCallRequest,
  },
  2026: { headers: { ...BASE_HEADERS, ...MODERN_ECHO_HEADERS }, request: modernEchoCallRequest },
};

const encoder = new TextEncoder();
const handler = createStreamableHttpHandler(createMcpkitEchoServer(), {
  stateless: !STATEFUL,
  enableJsonResponse: true,
});
const raw = handler[RAW_HTTP_HANDLER];

const NEVER_ABORTED = {
  aborted: false,
  addEventListener() {},
  removeEventListener() {},
};

/** A request as `@mcpkit/node/http` presents one: headers by lower-case name, the body read once. */
class View {
  constructor(headers, bytes) {
    this.headers = headers;
    this.bytes = bytes;
  }
  get method() {
    return 'POST';
  }
  get url() {
    return URL_;
  }
  get signal() {
    return NEVER_ABORTED;
  }
  get remoteAddress() {
    return '127.0.0.1';
  }
  header(name) {
    return this.headers.get(name) ?? null;
  }
  readBody() {
    return Promise.resolve(this.bytes);
  }
  toRequest() {
    throw new Error('the echo tool never reads ctx.httpRequest');
  }
}

/** Bodies with distinct ids (like autocannon's), made before the clock starts. */
function bodies(era) {
  const { request } = SHAPES[era];
  return Array.from({ length: 1024 }, (_, i) => encoder.encode(JSON.stringify(request(i + 1, PROBE_TEXT))));
}

const prepared = Object.fromEntries(
  ERAS.map((era) => [
    era,
    {
      headers: new Map(Object.entries({ host: '127.0.0.1:3000', ...SHAPES[era].headers })),
      bodies: bodies(era),
    },
  ]),
);

/** One request; checks the answer as the load generator does, and writes it as the adapter would. */
async function one(era, i) {
  const { headers, bodies: list } = prepared[era];
  const bytes = list[i & 1023];
  if (WEB) {
    const response = await handler(
      new Request(URL_, { method: 'POST', headers: Object.fromEntries(headers), body: bytes }),
    );
    check(response.status, await response.text());
    return;
  }
  const reply = await raw(new View(headers, bytes));
  reply.headers['content-length'] = String(Buffer.byteLength(reply.body));
  check(reply.status, reply.body);
}

function check(status, body) {
  if (status !== 200 || !body.includes(`"text":"${PROBE_TEXT}"`) || body.includes('"error":'))
    throw new Error(`unexpected answer ${status}: ${body}`);
}

async function run(era, count) {
  for (let i = 0; i < count; i += BURST) {
    const burst = [];
    for (let j = 0; j < BURST; j++) burst.push(one(era, i + j));
    await Promise.all(burst);
  }
}

/** STATEFUL: one session, opened as a client does, whose id every 2025 call then carries. */
async function openSession() {
  const headers = prepared[2025].headers;
  const opened = await raw(new View(headers, encoder.encode(JSON.stringify(initializeRequest(0)))));
  const id = opened.headers['mcp-session-id'];
  if (opened.status !== 200 || !id) throw new Error(`initialize failed: ${opened.status} ${opened.body}`);
  headers.set('mcp-session-id', id);
  const initialized = await raw(new View(headers, encoder.encode(JSON.stringify(INITIALIZED_NOTIFICATION))));
  if (initialized.status !== 202) throw new Error(`notifications/initialized got ${initialized.status}`);
}

if (STATEFUL) await openSession();
for (const era of ERAS) await run(era, 20_000); // warm-up: compiled, caches filled

const results = Object.fromEntries(ERAS.map((era) => [era, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ERAS : [...ERAS].reverse();
  for (const era of order) {
    const before = process.cpuUsage();
    await run(era, N);
    const cpu = process.cpuUsage(before);
    const us = (cpu.user + cpu.system) / N;
    results[era].push(us);
    console.log(`${era} ${us.toFixed(2)}`);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const medians = ERAS.map((era) => `${era}: ${median(results[era]).toFixed(2)} µs`);
console.log(`median CPU per request (${WEB ? 'Request/Response' : 'raw view'}): ${medians.join(', ')}`);
if (ERAS.length === 2) {
  const ratio = median(results[ERAS[1]]) / median(results[ERAS[0]]);
  console.log(`${ERAS[1]} / ${ERAS[0]}: ${ratio.toFixed(3)}`);
}
