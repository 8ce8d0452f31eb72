#!/usr/bin/env node
/**
 * Where the bytes of a bundle go, measured the way scripts/check-bundle-size.mjs measures (esbuild,
 * minified, gzip -9). Used to find cuts and to price options in docs/benchmarks.md.
 *
 *   node scripts/bundle-breakdown.mjs [entry] [--top 40]
 *     each module's share of the gzipped bundle: what gzip saves when the module's code is left
 *     out of the (identifier- and syntax-minified) bundle, scaled so the shares add up to the
 *     minified total (approximate: gzip shares repeated text between modules), beside each module's
 *     exact minified bytes from esbuild's metafile; then the same by directory and by package.
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
import { build, transformSync } from 'esbuild';
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
  return modules.map(({ name, lines }) => ({ name, code: withoutWhitespace(lines.join('\n')) }));
}

/**
 * A module's code as the minified bundle has it: esbuild keeps the doc comments of class members
 * when whitespace is not minified, and they would count as that module's bytes. A module's code is
 * a run of whole statements, so it parses on its own; if not, it is kept as it is.
 */
function withoutWhitespace(code) {
  try {
    return transformSync(code, { minifyWhitespace: true, logLevel: 'silent' }).code;
  } catch {
    return code;
  }
}

/** The package a bundled module belongs to: `@mcpkit/<name>`, a dependency's name, or the entry's folder. */
function packageOf(name) {
  const parts = name.split('/');
  if (parts[0] === 'packages') return `@mcpkit/${parts[1]}`;
  if (parts[0] === 'node_modules') return parts[1].startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1];
  return parts[0];
}

/** Adds each row's value to its group's total, largest first. */
function grouped(rows, groupOf, measure) {
  const groups = new Map();
  for (const row of rows) groups.set(groupOf(row.name), (groups.get(groupOf(row.name)) ?? 0) + measure(row));
  return [...groups].sort((a, b) => b[1] - a[1]);
}

async function breakdown(top) {
  const minified = await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], minify: true, metafile: true });
  const total = gzipBytes(minified.outputFiles[0].contents);
  const exact = Object.values(minified.metafile.outputs)[0].inputs;
  const minBytes = (name) => exact[name]?.bytesInOutput ?? 0;
  const modules = modulesOf((await bundle({ minifyIdentifiers: true, minifySyntax: true })).text);
  const whole = modules.map((module) => module.code).join('\n');
  const wholeGz = gzipBytes(Buffer.from(whole));
  const rows = modules.map((module, index) => {
    const rest = modules.filter((_, other) => other !== index).map((other) => other.code);
    return { name: module.name, saved: wholeGz - gzipBytes(Buffer.from(rest.join('\n'))) };
  });
  const scale = total / rows.reduce((sum, row) => sum + row.saved, 0);
  const gz = (row) => row.saved * scale;
  const line = (bytes, min, name) => `${kb(bytes).padStart(9)} gz ${kb(min).padStart(9)} min  ${name}`;
  console.log(`${path.relative(ROOT, entry)}: ${kb(total)} gz (${total} bytes)\n`);
  rows.sort((a, b) => b.saved - a.saved);
  for (const row of rows.slice(0, top)) console.log(line(gz(row), minBytes(row.name), row.name));
  const directoryOf = (name) =>
    name
      .split('/')
      .slice(0, name.startsWith('node_modules') ? 3 : 4)
      .join('/');
  for (const [title, groupOf] of [
    ['directory', directoryOf],
    ['package', packageOf],
  ]) {
    const sizes = new Map(grouped(rows, groupOf, (row) => minBytes(row.name)));
    console.log(`\nby ${title}:`);
    for (const [group, bytes] of grouped(rows, groupOf, gz).slice(0, top))
      console.log(line(bytes, sizes.get(group), group));
  }
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
