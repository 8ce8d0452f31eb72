#!/usr/bin/env node
/**
 * Measures the two JSON Schema validators of @mcpkit/schema against each other, to justify which
 * one is the default: compile time of a typical tool schema, validations per second on the echo
 * tool's arguments and on a medium object (valid and invalid), load time, and bundle size.
 *
 *   node bench/validators.bench.mjs [--quick] [--json]
 *
 * The TypeScript sources are bundled with esbuild first (minified, the way an application ships
 * them); the same bundles are what gets sized, imported and timed. Each timing is the median of
 * several rounds.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
});
const ROUNDS = flags.quick ? 3 : 5;
const ROUND_MS = flags.quick ? 300 : 1000;

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The benchmark echo tool's input schema (same as bench/lib/echo.mjs). */
const ECHO_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
};

/** A typical real-world tool schema: bounds, enums, a format, a nested closed object, arrays. */
const TOOL_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to search for' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    sort: { enum: ['relevance', 'updated', 'stars'] },
    filters: {
      type: 'object',
      properties: {
        language: { type: 'string', pattern: '^[a-z+#-]+$' },
        since: { type: 'string', format: 'date' },
        topics: { type: 'array', items: { type: 'string' }, maxItems: 10, uniqueItems: true },
        archived: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    fields: { type: 'array', items: { enum: ['name', 'owner', 'description', 'url', 'license'] } },
  },
  required: ['query'],
  additionalProperties: false,
};

const MEDIUM_VALID = {
  query: 'json schema validator',
  limit: 25,
  sort: 'stars',
  filters: {
    language: 'typescript',
    since: '2024-01-31',
    topics: ['mcp', 'schema', 'edge'],
    archived: false,
  },
  fields: ['name', 'owner', 'url'],
};
const MEDIUM_INVALID = {
  query: '',
  limit: 0,
  sort: 'forks',
  filters: { language: 'Type Script', since: '2024-02-30', topics: ['a', 'a'], extra: 1 },
  fields: ['name', 'stars'],
};

/** Bundles `source` (an ES module importing from the workspace) and returns the minified code. */
async function bundle(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: repo, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['@mcpkit/source', 'import', 'default'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].contents;
}

const ENTRIES = {
  cfworker: "export { cfworkerValidator as createValidator } from '@mcpkit/schema';",
  ajv: "export { ajvValidator as createValidator } from '@mcpkit/schema/ajv';",
};

/** Calls `fn` until `ms` have passed; returns calls per second. */
function rate(fn, ms) {
  let calls = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let index = 0; index < 100; index++) fn();
    calls += 100;
  }
  return calls / ((performance.now() - started) / 1000);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Mean µs per compile of a fresh copy of `schema` (fresh so no cache can answer). */
function compileMicros(createValidator, schema, count) {
  const validator = createValidator();
  validator.compile(structuredClone(schema)); // warm the instance (Ajv builds one per dialect)
  const copies = Array.from({ length: count }, () => structuredClone(schema));
  const started = performance.now();
  for (const copy of copies) validator.compile(copy);
  return ((performance.now() - started) * 1000) / count;
}

/** Milliseconds from a cold instance to the first compiled schema (a serverless cold start). */
function firstCompileMillis(createValidator, schema) {
  const started = performance.now();
  createValidator().compile(structuredClone(schema));
  return performance.now() - started;
}

/** Import time of a bundle in a fresh Node process, in ms (median of rounds). */
function importMillis(file) {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});console.log(performance.now()-t);`;
  const samples = [];
  for (let round = 0; round < ROUNDS; round++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`importing ${file} failed: ${child.stderr}`);
    samples.push(Number(child.stdout.trim()));
  }
  return median(samples);
}

async function measure(name, code, scratch) {
  const file = path.join(scratch, `${name}.mjs`);
  await writeFile(file, code);
  const { createValidator } = await import(pathToFileURL(file).href);
  const validator = createValidator();
  const echo = validator.compile(ECHO_SCHEMA);
  const tool = validator.compile(TOOL_SCHEMA);
  if (!echo({ text: 'hi' }).valid || !tool(MEDIUM_VALID).valid || tool(MEDIUM_INVALID).valid) {
    throw new Error(`${name}: wrong verdicts, refusing to time it`);
  }
  const sample = (fn) => median(Array.from({ length: ROUNDS }, () => fn()));
  return {
    validator: name,
    'min KB': code.length / 1024,
    'gzip KB': gzipSync(code, { level: 9 }).length / 1024,
    'import ms': importMillis(file),
    'first compile ms': sample(() => firstCompileMillis(createValidator, TOOL_SCHEMA)),
    'compile µs (tool)': sample(() => compileMicros(createValidator, TOOL_SCHEMA, flags.quick ? 50 : 200)),
    'echo ok /s': sample(() => rate(() => echo({ text: 'hi' }), ROUND_MS)),
    'medium ok /s': sample(() => rate(() => tool(MEDIUM_VALID), ROUND_MS)),
    'medium bad /s': sample(() => rate(() => tool(MEDIUM_INVALID), ROUND_MS)),
  };
}

function format(value) {
  if (typeof value !== 'number') return value;
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(2)}M`;
  if (value >= 10_000) return `${(value / 1_000).toFixed(0)}k`;
  return value >= 100 ? value.toFixed(0) : value.toFixed(2);
}

const scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-validators-'));
try {
  const rows = [];
  for (const [name, source] of Object.entries(ENTRIES))
    rows.push(await measure(name, await bundle(source), scratch));
  if (flags.json) {
    console.log(JSON.stringify({ node: process.version, rounds: ROUNDS, roundMs: ROUND_MS, rows }, null, 2));
  } else {
    console.log(
      `node ${process.version}, median of ${ROUNDS} rounds of ${ROUND_MS} ms (rates: validations/s)`,
    );
    console.table(
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, format(value)]))),
    );
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
