/**
 * Just enough of a Streamable HTTP client for the harness: open a session, make one checked call. Used to
 * prepare and sample-check servers before they are loaded, never for timing.
 * @module
 */
import {
  echoCallRequest,
  INITIALIZED_NOTIFICATION,
  initializeRequest,
  isEchoOf,
  PROTOCOL_VERSION,
} from './echo.mjs';

/** Headers every POST carries; Accept must list both types for Streamable HTTP. */
export const BASE_HEADERS = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

/**
 * The JSON-RPC messages in an `text/event-stream` body.
 * @param {string} body
 * @example
 * parseSseMessages('event: message\ndata: {"id":1}\n\n'); // [{ id: 1 }]
 */
export function parseSseMessages(body) {
  const messages = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

/**
 * POSTs one JSON-RPC message and returns the response with its decoded messages.
 * @param {string} url
 * @param {object} message
 * @param {Record<string, string>} headers
 * @example
 * const { status, messages } = await postMessage(url, initializeRequest(1), { ...BASE_HEADERS });
 */
export async function postMessage(url, message, headers) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let messages = [];
  if (body.length > 0 && contentType.includes('text/event-stream')) messages = parseSseMessages(body);
  else if (body.length > 0 && contentType.includes('application/json')) messages = [JSON.parse(body)];
  return { status: response.status, headers: response.headers, contentType, body, messages };
}

/**
 * Opens a session: `initialize`, then `notifications/initialized`. Returns the headers later requests
 * must carry (`Mcp-Session-Id`, `MCP-Protocol-Version`).
 * @param {string} url
 * @returns {Promise<{ sessionId: string, headers: Record<string, string> }>}
 * @example
 * const { headers } = await openSession('http://127.0.0.1:3000/mcp');
 */
export async function openSession(url) {
  const init = await postMessage(url, initializeRequest(0), { ...BASE_HEADERS });
  const result = init.messages[0]?.result;
  if (init.status !== 200 || !result)
    throw new Error(`initialize failed: ${init.status} ${init.body.slice(0, 300)}`);
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize response has no Mcp-Session-Id header');
  const headers = {
    ...BASE_HEADERS,
    'mcp-session-id': sessionId,
    'mcp-protocol-version': result.protocolVersion ?? PROTOCOL_VERSION,
  };
  const initialized = await postMessage(url, INITIALIZED_NOTIFICATION, headers);
  if (initialized.status < 200 || initialized.status >= 300) {
    throw new Error(`notifications/initialized got ${initialized.status}: ${initialized.body.slice(0, 300)}`);
  }
  return { sessionId, headers };
}

/**
 * Calls `echo` once and throws unless the answer is the echoed text in the framing the mode promises.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {{ text: string, expectContentType?: string, request?: typeof echoCallRequest, expectResultType?: string }} options
 *   `request` builds the call (default: the 2025 one; `modernEchoCallRequest` for 2026-07-28);
 *   `expectResultType` is the `resultType` the result must carry (2026-07-28: `complete`), which
 *   tells a 2026 answer from a 2025 one
 * @example
 * await checkedEchoCall(url, headers, { text: PROBE_TEXT, expectContentType: 'text/event-stream' });
 */
export async function checkedEchoCall(
  url,
  headers,
  { text, expectContentType, request = echoCallRequest, expectResultType },
) {
  const reply = await postMessage(url, request('probe-1', text), headers);
  if (reply.status !== 200)
    throw new Error(`tools/call got HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
  if (expectContentType && !reply.contentType.includes(expectContentType)) {
    throw new Error(
      `tools/call answered with ${reply.contentType || 'no content type'}, expected ${expectContentType}`,
    );
  }
  const response = reply.messages.find((message) => message.id === 'probe-1');
  if (!isEchoOf(response?.result, text)) {
    throw new Error(`tools/call did not return the echoed text: ${reply.body.slice(0, 300)}`);
  }
  if (expectResultType !== undefined && response.result.resultType !== expectResultType) {
    throw new Error(`tools/call result has no resultType "${expectResultType}": ${reply.body.slice(0, 300)}`);
  }
  return reply;
}
