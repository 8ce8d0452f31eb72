// Baseline HTTP client: undici's Pool posting JSON-RPC by hand (no MCP library), the floor any
// client on undici can reach. Session id and protocol version headers as the spec asks.
import { Pool } from 'undici';
import {
  echoCallRequest,
  INITIALIZED_NOTIFICATION,
  initializeRequest,
  PROTOCOL_VERSION,
} from '../lib/echo.mjs';

const ACCEPT = 'application/json, text/event-stream';

/** @type {(options: { url: string }) => Promise<import('./driver.js').BenchSession>} */
export async function connect({ url }) {
  const target = new URL(url);
  const pool = new Pool(target.origin);
  const post = async (message, headers) => {
    const response = await pool.request({
      path: target.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: JSON.stringify(message),
    });
    const text = await response.body.text();
    return { response, json: text ? JSON.parse(text) : undefined };
  };
  const { response } = await post(initializeRequest(0), {});
  const session = {
    'mcp-session-id': String(response.headers['mcp-session-id']),
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  await post(INITIALIZED_NOTIFICATION, session);
  let nextId = 1;
  return {
    call: async (text) => {
      const { json } = await post(echoCallRequest(nextId++, text), session);
      if (json.error) throw new Error(json.error.message);
      return json.result;
    },
    close: () => pool.close(),
  };
}
