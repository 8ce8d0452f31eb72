/**
 * How each runtime starts the test server (`<runtime>/server.mjs`) and runs the client scenarios
 * (`<runtime>/client.mjs`) in the scratch project, as a user of that runtime would.
 */
import path from 'node:path';
import { ensureRuntime } from '../../scripts/lib/runtimes.mjs';
import { freePort, listening, start, tail } from './processes.mjs';

const MODES = ['sse', 'json', 'stateless'];
const urlsLine = (line) => line.startsWith('{"urls"');

/** Runs a client script to its end and returns the JSON results it printed last. */
async function clientResults(command, args, app) {
  const child = start(command, args, { cwd: app });
  const line = await child.line((text) => text.startsWith('['), 120_000);
  await child.stop();
  return { results: JSON.parse(line), stderr: child.output.stderr };
}

/** A runtime that runs a script file: Node, Bun, Deno. */
function scriptRuntime(binary, folder, runArgs = []) {
  return {
    binary,
    async server(app) {
      const child = start(binary(), [...runArgs, `${folder}/server.mjs`], { cwd: app });
      const { urls } = JSON.parse(await child.line(urlsLine));
      return { urls, child };
    },
    client: (app, urls) =>
      clientResults(binary(), [...runArgs, `${folder}/client.mjs`, JSON.stringify(urls)], app),
  };
}

const workerd = {
  binary: () => ensureRuntime('workerd'),
  async server(app) {
    const ports = await Promise.all(MODES.map(() => freePort()));
    const sockets = MODES.flatMap((mode, i) => ['--socket-addr', `${mode}=127.0.0.1:${ports[i]}`]);
    const child = start(
      workerd.binary(),
      ['serve', path.join('workerd', 'config.capnp'), 'server', ...sockets],
      {
        cwd: app,
      },
    );
    const urls = Object.fromEntries(MODES.map((mode, i) => [mode, `http://127.0.0.1:${ports[i]}/mcp`]));
    try {
      await listening(urls.stateless);
    } catch (error) {
      await child.stop();
      throw new Error(`${error.message}\n${tail(child.output)}`);
    }
    return { urls, child };
  },
  async client(app, urls) {
    const port = await freePort();
    const args = [
      'serve',
      path.join('workerd', 'config.capnp'),
      'client',
      '--socket-addr',
      `client=127.0.0.1:${port}`,
    ];
    const child = start(workerd.binary(), args, { cwd: app });
    try {
      const base = `http://127.0.0.1:${port}/`;
      await listening(base);
      const response = await fetch(`${base}?urls=${encodeURIComponent(JSON.stringify(urls))}`);
      const text = await response.text();
      if (!response.ok) throw new Error(`the client Worker answered ${response.status}: ${text}`);
      return { results: JSON.parse(text), stderr: child.output.stderr };
    } finally {
      await child.stop();
    }
  },
};

/** Every runtime of the suite, by the name `--runtime` takes. */
export const LAUNCHERS = {
  node20: scriptRuntime(() => process.execPath, 'node'),
  node22: scriptRuntime(() => ensureRuntime('node22'), 'node'),
  node24: scriptRuntime(() => ensureRuntime('node24'), 'node'),
  bun: scriptRuntime(() => ensureRuntime('bun'), 'bun'),
  deno: scriptRuntime(() => ensureRuntime('deno'), 'deno', ['run', '--allow-net']),
  workerd,
};
