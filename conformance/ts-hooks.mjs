/**
 * Module hooks behind register-ts.mjs: TypeScript sources of this repo, loaded by plain Node.
 * Runs in Node's loader thread; see register-ts.mjs for the why.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const TYPESCRIPT_FILE = /\.m?ts$/;
const RELATIVE_JS = /^\.{1,2}\/.*\.js$/;
const WORKSPACE_SCOPE = '@mcpkit/';

// The compiler options that change emitted JavaScript; the rest of tsconfig only affects checking.
const TSCONFIG = { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true } };

/**
 * Resolve hook: workspace packages via their `source` condition, `.js` specifiers to `.ts` siblings.
 *
 * @example
 * // import '@mcpkit/core' -> file:///.../packages/core/src/index.ts
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith(WORKSPACE_SCOPE)) {
    return nextResolve(specifier, { ...context, conditions: ['@mcpkit/source', ...context.conditions] });
  }
  const parent = context.parentURL;
  if (parent && TYPESCRIPT_FILE.test(parent) && RELATIVE_JS.test(specifier)) {
    const typescriptUrl = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, parent);
    if (existsSync(fileURLToPath(typescriptUrl))) return { url: typescriptUrl.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/**
 * Load hook: strips the types of `.ts` / `.mts` files (ES modules: the repo is `"type": "module"`).
 *
 * @example
 * // file:///.../conformance/fixture-server.ts -> JavaScript with an inline source map
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT_FILE.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
    tsconfigRaw: TSCONFIG,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
