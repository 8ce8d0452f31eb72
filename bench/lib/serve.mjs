/**
 * Helpers for HTTP benchmark server scripts (`bench/servers/<impl>-http.mjs`), so each script only
 * contains the implementation-specific wiring. The harness passes its choices through the environment:
 * `BENCH_HTTP_MODE` (json | sse | stateless) and `BENCH_PORT` (0 picks a free port).
 * @module
 */

/** The three Streamable HTTP modes the harness measures. */
export const HTTP_MODES = Object.freeze(['json', 'sse', 'stateless']);

/** Path every HTTP benchmark server serves MCP on. */
export const MCP_PATH = '/mcp';

/**
 * Reads the mode and port the harness asked for.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ mode: 'json' | 'sse' | 'stateless', port: number, host: string, path: string }}
 * @example
 * const { mode, port } = httpServerOptions();
 */
export function httpServerOptions(env = process.env) {
  const mode = env.BENCH_HTTP_MODE ?? 'json';
  if (!HTTP_MODES.includes(mode)) throw new Error(`BENCH_HTTP_MODE must be one of ${HTTP_MODES.join(', ')}`);
  const port = Number(env.BENCH_PORT ?? 0);
  return { mode: /** @type {any} */ (mode), port, host: '127.0.0.1', path: MCP_PATH };
}

/**
 * Starts `server` listening on the requested port and prints the `READY <port>` line the harness waits for.
 * @param {import('node:http').Server} server
 * @param {{ port: number, host: string }} options
 * @returns {Promise<number>} the bound port
 * @example
 * await listenAndAnnounce(http.createServer(handler), httpServerOptions());
 */
export function listenAndAnnounce(server, { port, host }) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      process.stdout.write(`READY ${bound}\n`);
      resolve(bound);
    });
  });
}

/**
 * Reads a whole request body as UTF-8 text.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 * @example
 * const body = JSON.parse(await readBody(req));
 */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Sends a JSON body with a status code; used for the errors benchmark servers produce themselves.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @example
 * sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
 */
export function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
