/**
 * The demo app's view: a tally with a button. Plain HTML and script speaking the MCP Apps
 * postMessage protocol by hand (no SDK inside the view): `ui/initialize`, then
 * `ui/notifications/initialized`; the count arrives as a tool result and each click calls the
 * app-only tool `tally_add` back through the host; the view reports its height.
 * @module
 */

/**
 * The view's HTML document.
 *
 * @example
 * ```ts
 * TALLY_VIEW_HTML.startsWith('<!doctype html>'); // true
 * ```
 */
export const TALLY_VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tally</title>
<style>
  :root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 12px 16px; }
  output { font-size: 2rem; font-variant-numeric: tabular-nums; margin-right: 12px; }
  button { font: inherit; padding: 4px 12px; }
  #error { color: #b00020; }
</style>
</head>
<body>
<output id="count">–</output><button id="add" disabled>+1</button>
<p id="error" hidden></p>
<script>
(() => {
  let nextId = 1;
  const pending = new Map();
  const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const show = (result) => {
    const count = result && result.structuredContent && result.structuredContent.count;
    if (typeof count === 'number') document.getElementById('count').textContent = String(count);
  };
  const fail = (message) => {
    const error = document.getElementById('error');
    error.textContent = message;
    error.hidden = false;
  };
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && message.method === undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (waiter) message.error ? waiter.reject(new Error(message.error.message)) : waiter.resolve(message.result);
    } else if (message.method === 'ui/notifications/tool-result') {
      show(message.params);
    } else if (message.method === 'ui/resource-teardown') {
      send({ id: message.id, result: {} });
    } else if (message.id !== undefined) {
      send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });
  const reportSize = () => send({ method: 'ui/notifications/size-changed', params: {
    width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) } });
  document.getElementById('add').addEventListener('click', async () => {
    try { show(await request('tools/call', { name: 'tally_add', arguments: {} })); }
    catch (error) { fail(String(error.message || error)); }
  });
  request('ui/initialize', {
    appInfo: { name: 'mcpkit-demo-tally', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: '2026-01-26',
  }).then(() => {
    send({ method: 'ui/notifications/initialized', params: {} });
    document.getElementById('add').disabled = false;
    new ResizeObserver(reportSize).observe(document.body);
  }, (error) => fail('The host refused the view: ' + error.message));
})();
</script>
</body>
</html>
`;
