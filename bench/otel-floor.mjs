#!/usr/bin/env node
/**
 * Where the OpenTelemetry cost of a server request goes: the SDK's own calls alone in a loop (the
 * floor any instrumentation pays) against `@mcpkit/otel`'s three hooks around one request, with
 * the real SDK registered as in bench/lib/observe.mjs (AsyncLocalStorage context, W3C
 * propagators, batch span processor, periodic metric reader, exporters that drop everything).
 * CPU time per operation, scenarios interleaved round after round in one process, medians.
 * Runs from the TypeScript sources, no build needed:
 *
 *   node --import ./conformance/register-ts.mjs bench/otel-floor.mjs [--rounds 9] [--ops 20000] [--base <dir>]
 *
 * `--base` adds the adapter of another build (a copy of an older `packages/otel/dist`, or of its
 * `src`, placed inside this checkout so that its imports resolve, e.g. under bench/.tmp/),
 * interleaved with the current one.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ObservedRequest } from '@mcpkit/core';
import { createOtelObserver } from '@mcpkit/otel';
import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import { registerOtelSdk } from './lib/observe.mjs';

/** The entry of `--base`: a built `dist` (index.js) or a copy of `src` (index.ts). */
function baseEntry(dir) {
  const built = path.resolve(dir, 'index.js');
  return pathToFileURL(existsSync(built) ? built : path.resolve(dir, 'index.ts')).href;
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    ops: { type: 'string', default: '20000' },
    base: { type: 'string' },
  },
});

await registerOtelSdk();
const tracer = trace.getTracer('floor');
const histogram = metrics.getMeter('floor').createHistogram('floor.duration', { unit: 's' });
// What the adapter records for an echo call over HTTP (its attribute set, five keys).
const attributes = Object.freeze({
  'mcp.method.name': 'tools/call',
  'mcp.protocol.version': '2025-11-25',
  'network.transport': 'tcp',
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': 'echo',
});
const observer = createOtelObserver();
const baseObserver = values.base ? (await import(baseEntry(values.base))).createOtelObserver() : undefined;
// The histogram's attributes since `gen_ai.operation.name` was left to spans (four keys).
const { 'gen_ai.operation.name': _, ...metricAttributes } = attributes;
const session = { role: 'server', id: undefined, protocolVersion: '2025-11-25', transport: 'tcp' };
const params = { name: 'echo', arguments: { text: 'hello' } };
const outcome = { durationMs: 0.05, result: { content: [{ type: 'text', text: 'hello' }] } };
const handler = () => 1;
const root = context.active();

function sdkSpan() {
  tracer.startSpan('tools/call echo', { kind: SpanKind.SERVER, attributes }, root).end();
}
function sdkSpanWith() {
  const span = tracer.startSpan('tools/call echo', { kind: SpanKind.SERVER, attributes }, root);
  context.with(trace.setSpan(root, span), handler);
  span.end();
}
function sdkRecord() {
  histogram.record(0.00005, attributes);
}
function sdkRecord4() {
  histogram.record(0.00005, metricAttributes);
}
function sdkAll() {
  sdkSpanWith();
  sdkRecord();
}
let id = 0;
function observedOnly() {
  return new ObservedRequest('server', 'tools/call', ++id, params, session);
}
function hooks(on) {
  return () => {
    const request = new ObservedRequest('server', 'tools/call', ++id, params, session);
    on.requestStarted(request);
    on.runHandler(request, handler);
    on.requestFinished(request, outcome);
  };
}

const SCENARIOS = {
  'ObservedRequest alone': observedOnly,
  'SDK: span start + end': sdkSpan,
  'SDK: + context.with': sdkSpanWith,
  'SDK: histogram.record': sdkRecord,
  'SDK: record, 4 keys': sdkRecord4,
  'SDK: all three': sdkAll,
  'adapter (3 hooks)': hooks(observer),
  ...(baseObserver ? { 'adapter, base': hooks(baseObserver) } : {}),
};

const ops = Number(values.ops);
/**
 * Runs `run` `ops` times, yielding to the event loop every 16 operations as a server does between
 * requests: the batch span processor then exports (here: drops) every 512 spans, so spans live in
 * its buffer for a while, as they do in production, instead of being dropped at once when a
 * loop that never yields has filled the buffer.
 */
async function repeat(run) {
  for (let i = 0; i < ops; i++) {
    run();
    if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
  }
}
const samples = Object.fromEntries(Object.keys(SCENARIOS).map((name) => [name, []]));
for (const run of Object.values(SCENARIOS)) await repeat(run); // warm-up
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, run] of Object.entries(SCENARIOS)) {
    const before = process.cpuUsage();
    await repeat(run);
    const used = process.cpuUsage(before);
    samples[name].push((used.user + used.system) / ops);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log('scenario                    CPU µs/op (median)   samples');
for (const [name, list] of Object.entries(samples)) {
  console.log(
    `${name.padEnd(28)}${median(list).toFixed(2).padStart(10)}   ${list.map((s) => s.toFixed(2)).join(', ')}`,
  );
}
// mcpkit's own share above the floor (issue 34: target at most 1 µs): the adapter's three hooks
// against the SDK calls they make, round by round.
const own = samples['adapter (3 hooks)'].map((adapter, i) => adapter - samples['SDK: all three'][i]);
console.log(
  `adapter − SDK all three    ${median(own).toFixed(2).padStart(10)}   ${own.map((d) => d.toFixed(2)).join(', ')}`,
);
if (baseObserver) {
  // Adjacent batches share the machine's state: their differences resolve what the medians cannot.
  const differences = samples['adapter (3 hooks)'].map((current, i) => current - samples['adapter, base'][i]);
  console.log(
    `adapter − base, paired     ${median(differences).toFixed(2).padStart(10)}   ${differences.map((d) => d.toFixed(2)).join(', ')}`,
  );
}
process.exit(0);
