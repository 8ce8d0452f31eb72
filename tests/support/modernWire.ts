/**
 * 2026-07-28 requests as the tests send them: the `_meta` envelope and the standard headers,
 * written out by hand so each test states exactly the bytes it means.
 */
export type Json = Record<string, any>;

export const MODERN = '2026-07-28';

/** The `_meta` envelope of a 2026-07-28 request. */
export function envelope(extra: Json = {}): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern-test', version: '1.0.0' },
    ...extra,
  };
}

/** A 2026-07-28 request body. */
export function modernRequest(id: number | string, method: string, params: Json = {}, meta: Json = {}): Json {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(meta) } };
}

/** The standard headers of a 2026-07-28 POST for `message` (Mcp-Name from params.name / params.uri). */
export function modernHeaders(message: Json): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? MODERN,
    'mcp-method': message.method,
  };
  const name = message.params?.name ?? message.params?.uri;
  if (typeof name === 'string' && ['tools/call', 'prompts/get', 'resources/read'].includes(message.method)) {
    headers['mcp-name'] = name;
  }
  // The tasks extension routes its methods by task id (SEP-2663).
  const taskId = message.params?.taskId;
  if (typeof taskId === 'string' && ['tasks/get', 'tasks/update', 'tasks/cancel'].includes(message.method)) {
    headers['mcp-name'] = taskId;
  }
  return headers;
}

/** POSTs one 2026-07-28 message; `headers` overrides (a `null` value removes a header). */
export async function postModern(
  url: string,
  message: Json,
  headers: Record<string, string | null> = {},
): Promise<{ status: number; body: Json | undefined; response: Response }> {
  const all: Record<string, string> = modernHeaders(message);
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete all[name];
    else all[name] = value;
  }
  const response = await fetch(url, { method: 'POST', headers: all, body: JSON.stringify(message) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let body: Json | undefined;
  if (type.includes('application/json')) body = JSON.parse(text);
  else if (type.includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
    body = data.find((event) => event.id === message.id && !event.method);
  }
  return { status: response.status, body, response };
}
