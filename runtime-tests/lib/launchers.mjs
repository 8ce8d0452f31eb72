/**
 * How each runtime starts the test server (`<runtime>/server.mjs`) and runs the client scenarios
 * (`<runtime>/client.mjs`) in the scratch project, as a user of that runtime would.
 */
import path from 'node:path';
import { ensureRuntime } from '../../scripts/lib/runtimes.mjs';
import { chromiumLauncher } from './chromium.mjs';
import { freePort, listening, start, tail } from './processes.mjs';

const urlsLine = (line) => line.startsWith('{"urls"');

/** Runs a client script to its end and returns the JSON results it printed last. */
async function clientResults(command, args, app) {
  const child = start(command, args, { cwd: app });
  const line = await child.line((text) => text.startsWith('['), 120_000);
  await child.stop();
  return { results: JSON.parse(line), stderr: child.output.stderr };
}

/**
 * What a runtime's server process may print on stderr, when the README documents it. Anything else
 * (or nothing, when the notice is expected) fails the suite.
 * @typedef {{ pattern: RegExp, note: string }} ExpectedStderr
 */

/**
 * A runtime that runs a script file: Node, Bun, Deno. `groups` splits the modes over several server
 * processes (the modes as the script's first argument), so that a notice documented for one mode
 * is checked there and every other mode's stderr must stay empty. A group with `flags` runs with
 * those runtime flags too, and its modes are reported as `<mode> <flags>`.
 *
 * @param {{ modes: string[], flags?: string[], stderr?: ExpectedStderr }[] | undefined} groups
 */
function scriptRuntime(binary, folder, runArgs = [], groups = undefined) {
  const startServer = async (app, group, env) => {
    const modeArgs = group ? [group.modes.join(',')] : [];
    const flags = group?.flags ?? [];
    const args = [...runArgs, ...flags, `${folder}/server.mjs`, ...modeArgs];
    const child = start(binary(), args, { cwd: app, env });
    const { urls } = JSON.parse(await child.line(urlsLine));
    const named = Object.entries(urls).map(([mode, url]) => [[mode, ...flags].join(' '), url]);
    const modes = named.map(([mode]) => mode);
    return { urls: Object.fromEntries(named), process: { child, modes, stderr: group?.stderr } };
  };
  return {
    binary,
    /** `env` adds to the server processes' environment (the Node server's page origin, for Chromium). */
    async server(app, env) {
      const started = await Promise.all((groups ?? [undefined]).map((group) => startServer(app, group, env)));
      return {
        urls: Object.assign({}, ...started.map((s) => s.urls)),
        processes: started.map((s) => s.process),
      };
    },
    client: (app, urls) =>
      clientResults(binary(), [...runArgs, `${folder}/client.mjs`, JSON.stringify(urls)], app),
  };
}

/**
 * Deno prints a notice the first time a handler reads `request.signal`. Only a JSON answer
 * (enableJsonResponse) still undecided after delivery reads it, to notice a client that leaves (the
 * scenarios' async tools do); README "Run on Bun, Deno
 * and Workers" documents it.
 */
const DENO_JSON_NOTICE = {
  pattern: /^Deno\.serve: request\.signal aborts on successful responses \(legacy behavior\)/,
  note: 'documented limitation: with enableJsonResponse the handler reads request.signal, and Deno prints its legacy-abort notice once (--unstable-no-legacy-abort silences it)',
};

/**
 * What Workers cannot do, as the README documents: scenarios listed here assert the limitation
 * (and record it) instead of the behavior other runtimes have.
 */
const STATELESS_ONLY = 'documented limitation: Workers run stateless (README, examples/worker.ts)';
const WORKERD_LIMITATIONS = {
  'sampling during a call': `${STATELESS_ONLY}: no requests to the client, the tool fails`,
  'list_changed to an idle session': `${STATELESS_ONLY}: no sessions, a GET answers 405`,
  'disconnect reaches the handler signal':
    'documented limitation: workerd does not promise to tell a Worker that its client left (request.signal, read by the JSON mode with enable_request_signal on, and a cancel of the SSE response body fire only sometimes), so ctx.signal may or may not fire',
};

const workerd = {
  binary: () => ensureRuntime('workerd'),
  async server(app) {
    // Stateless only, as Workers must run (README, examples/worker.ts): the stateful modes' scenarios
    // are not skipped, the stateless ones assert what stateless cannot do (GET 405, no sampling).
    const modes = ['stateless', 'stateless-json'];
    const ports = await Promise.all(modes.map(() => freePort()));
    const sockets = modes.flatMap((mode, i) => ['--socket-addr', `${mode}=127.0.0.1:${ports[i]}`]);
    const args = ['serve', path.join('workerd', 'config.capnp'), 'server', ...sockets];
    const child = start(workerd.binary(), args, { cwd: app });
    const urls = Object.fromEntries(modes.map((mode, i) => [mode, `http://127.0.0.1:${ports[i]}/mcp`]));
    try {
      for (const url of Object.values(urls)) await listening(url);
    } catch (error) {
      await child.stop();
      throw new Error(`${error.message}\n${tail(child.output)}`);
    }
    return { urls, processes: [{ child, modes }], limitations: WORKERD_LIMITATIONS };
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
  deno: scriptRuntime(
    () => ensureRuntime('deno'),
    'deno',
    ['run', '--allow-net'],
    [
      { modes: ['sse', 'stateless'] },
      { modes: ['json'], stderr: DENO_JSON_NOTICE },
      // The documented way to silence it: the same JSON mode, stderr empty, disconnect still noticed.
      { modes: ['json'], flags: ['--unstable-no-legacy-abort'] },
    ],
  ),
  workerd,
  // A client only: the page's scenarios against the Node server (lib/chromium.mjs).
  chromium: chromiumLauncher,
};
