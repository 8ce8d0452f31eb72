/**
 * The sandbox proxy page: the document a host frames on another origin. It tells the host it is
 * ready (`ui/notifications/sandbox-proxy-ready`), loads the HTML the host sends
 * (`…/sandbox-resource-ready`) into an inner frame (`srcdoc`, always sandboxed without
 * `allow-same-origin`, so each view has an opaque origin of its own and reaches neither the proxy
 * nor another view's proxy), and relays every other message both ways: from the host only if it
 * comes from the parent at the `host` origin, from the view only if it comes from the inner frame.
 * The inner document inherits the page's CSP, which the page's server builds from the view's
 * declared domains (`sandboxResponse`), so what the view may reach is fixed before its HTML arrives.
 * @module
 */

/**
 * Tokens a host may put in the inner frame's `sandbox` (`params.sandbox`); others are dropped.
 * Never `allow-same-origin`: every view's proxy shares the sandbox origin, so a view with that
 * origin could reach another view's proxy (`top.frames[i]`), run code in its realm and post to the
 * host as that view, calling the other server's app-only tools. Views always get an opaque origin.
 */
const INNER_SANDBOX_TOKENS = ['allow-scripts', 'allow-forms', 'allow-modals', 'allow-popups'];

const SCRIPT = `(() => {
  const host = new URLSearchParams(location.search).get('host');
  if (!host || window.parent === window) return;
  const allowedTokens = new Set(${JSON.stringify(INNER_SANDBOX_TOKENS)});
  const features = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  let inner = null;
  const isSandboxMessage = (m) => typeof m.method === 'string' && m.method.startsWith('ui/notifications/sandbox-');
  function load(params) {
    if (inner || !params || typeof params.html !== 'string') return;
    inner = document.createElement('iframe');
    const requested = typeof params.sandbox === 'string' ? params.sandbox.split(/\\s+/).filter((t) => allowedTokens.has(t)) : [];
    inner.setAttribute('sandbox', requested.length > 0 ? requested.join(' ') : 'allow-scripts allow-forms');
    const permissions = params.permissions && typeof params.permissions === 'object' ? params.permissions : {};
    const allow = Object.keys(features).filter((k) => permissions[k]).map((k) => features[k]);
    if (allow.length > 0) inner.setAttribute('allow', allow.join('; '));
    inner.srcdoc = params.html;
    document.body.appendChild(inner);
  }
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
    if (event.source === window.parent && event.origin === host) {
      if (isSandboxMessage(m)) {
        if (m.method === 'ui/notifications/sandbox-resource-ready') load(m.params);
      } else if (inner && inner.contentWindow) {
        inner.contentWindow.postMessage(m, '*');
      }
    } else if (inner && event.source === inner.contentWindow && !isSandboxMessage(m)) {
      window.parent.postMessage(m, host);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
})();`;

/**
 * The proxy page's HTML (the same for every view; what differs is the CSP header it is served with).
 *
 * @example
 * ```ts
 * new Response(SANDBOX_PROXY_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } });
 * ```
 */
export const SANDBOX_PROXY_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>${SCRIPT}</script></body></html>
`;
