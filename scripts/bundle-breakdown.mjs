#!/usr/bin/env node
/**
 * Where the bytes of a bundle go, measured the way scripts/check-bundle-size.mjs measures (esbuild,
 * minified, gzip -9). Used to find cuts and to price options in docs/benchmarks.md.
 *
 *   node scripts/bundle-breakdown.mjs [entry] [--top 40]
 *     each module's share of the gzipped bundle: what gzip saves when the module's code is left
 *     out of the (identifier- and syntax-minified) bundle, scaled so the shares add up to the
 *     minified total. Approximate: gzip shares repeated text between modules.
 *   node scripts/bundle-breakdown.mjs [entry] --without mrtr/,modern/inputRounds
 *     the minified gzipped size when every module whose path contains one of the given strings is
 *     replaced by a stub exporting the same names (so its own imports drop out too): what making
 *     that code opt-in would save at most, before the seam that would load it.
 *
 * The entry defaults to the benchmark's minimal stdio server.
 * @module
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS, gzipBytes } from './lib/bundling.mjs';
import { ROOT } from './lib/packages.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' }, without: { type: 'string' } },
});
const entry = path.resolve(ROOT, positionals[0] ?? 'bench/servers/mcpkit-stdio.mjs');
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

async function bundle(options) {
  const result = await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], ...options });
  return result.outputFiles[0];
}

/** A plugin that replaces matching modules by stubs with the same export names. */
function stubPlugin(patterns) {
  const exportsOf = async (file) => {
    const result = await build({ ...BUNDLE_OPTIONS, entryPoints: [file], bundle: false, metafile: true });
    return Object.values(result.metafile.outputs)[0].exports;
  };
  return {
    name: 'stub-modules',
    setup(builder) {
      builder.onLoad({ filter: /\.(ts|js|mjs)$/ }, async ({ path: file }) => {
        const relative = path.relative(ROOT, file);
        if (!patterns.some((pattern) => relative.includes(pattern))) return undefined;
        const names = await exportsOf(file);
        const stub = names.map((name) =>
          name === 'default' ? 'export default function () {}' : `export function ${name}() {}`,
        );
        return { contents: stub.join('\n'), loader: 'js' };
      });
    },
  };
}

/** Splits an unminified-whitespace bundle at esbuild's `// path` module markers. */
function modulesOf(text) {
  const modules = [{ name: '(runtime helpers)', lines: [] }];
  for (const line of text.split('\n')) {
    const marker = /^\/\/ (\S+\.(?:ts|mts|js|mjs|cjs))$/.exec(line);
    if (marker) modules.push({ name: marker[1], lines: [] });
    else modules.at(-1).lines.push(line);
  }
  return modules.map(({ name, lines }) => ({ name, code: lines.join('\n') }));
}

async function breakdown(top) {
  const total = gzipBytes((await bundle({ minify: true })).contents);
  const modules = modulesOf((await bundle({ minifyIdentifiers: true, minifySyntax: true })).text);
  const whole = modules.map((module) => module.code).join('\n');
  const wholeGz = gzipBytes(Buffer.from(whole));
  const rows = modules.map((module, index) => {
    const rest = modules.filter((_, other) => other !== index).map((other) => other.code);
    return { name: module.name, saved: wholeGz - gzipBytes(Buffer.from(rest.join('\n'))) };
  });
  const scale = total / rows.reduce((sum, row) => sum + row.saved, 0);
  console.log(`${path.relative(ROOT, entry)}: ${kb(total)} gz (${total} bytes)\n`);
  const groups = new Map();
  for (const row of rows.sort((a, b) => b.saved - a.saved)) {
    const group = row.name
      .split('/')
      .slice(0, row.name.startsWith('node_modules') ? 3 : 4)
      .join('/');
    groups.set(group, (groups.get(group) ?? 0) + row.saved * scale);
  }
  for (const row of rows.slice(0, top)) console.log(`${kb(row.saved * scale).padStart(9)}  ${row.name}`);
  console.log('\nby directory:');
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${kb(bytes).padStart(9)}  ${group}`);
}

async function without(patterns) {
  const total = gzipBytes((await bundle({ minify: true })).contents);
  const stubbed = gzipBytes((await bundle({ minify: true, plugins: [stubPlugin(patterns)] })).contents);
  console.log(
    `${path.relative(ROOT, entry)}: ${kb(total)} gz; without ${patterns.join(', ')}: ${kb(stubbed)} (-${kb(total - stubbed)})`,
  );
}

if (values.without) await without(values.without.split(',').filter(Boolean));
else await breakdown(Number(values.top));
