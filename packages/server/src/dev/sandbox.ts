/**
 * The sandbox proxy of `duet dev` (and of anything else that renders views the way a web host must,
 * such as `duet check`). Exports:
 *
 * - {@link createSandboxHandler}: the HTTP handler of the sandbox origin — `/sandbox.html?csp=<json>`
 *   (the view's CSP as a header, plus `frame-ancestors` naming the host page's origins) and
 *   `/sandbox.js` (the proxy script). Serve it on its own listener: its origin must differ from the
 *   host page's.
 * - {@link hostPageCsp}: the Content-Security-Policy a host page that embeds this proxy should send
 *   (`frame-src` only the sandbox, `frame-ancestors 'none'`).
 * - {@link INNER_SANDBOX}: the `sandbox` attribute of the view's own frame.
 * - From `./view-diagnostics.js`: `VIEW_DIAGNOSTIC` and `parseViewDiagnostic`, for the view's console
 *   errors, uncaught exceptions, unhandled rejections and CSP violations the proxy relays to the host.
 *
 * The layering (MCP Apps §sandbox proxy): host page (origin A) → outer iframe, the proxy (origin B:
 * another port, the same host name as the page — a distinct origin in every browser, whichever of
 * `127.0.0.1` and `localhost` the page was opened at, which a name-based split would not give) →
 * inner iframe, the view, with an opaque origin. The spec's reference proxy gives
 * the inner frame `allow-same-origin`, which makes the view same-origin with the proxy: the view
 * can then run code in the proxy's document and navigate it anywhere, whatever its CSP says. Here
 * the view cannot script the proxy, the proxy's navigations are held to origin B by the host page's
 * `frame-src`, and the view's own (srcdoc) navigations by its CSP, which the srcdoc document
 * inherits from the proxy's header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DuetError } from 'duetkit/protocol'
import { cspFromQuery } from './csp.js'
import { CAPTURE_SCRIPT, MAX_DIAGNOSTIC_TEXT, MAX_DIAGNOSTICS, VIEW_DIAGNOSTIC, insertAtTop } from './view-diagnostics.js'

export { VIEW_DIAGNOSTIC, parseViewDiagnostic, type ViewDiagnostic } from './view-diagnostics.js'

/**
 * The view frame's sandbox: scripts and forms, nothing else — no `allow-same-origin` (so an opaque
 * origin: no reach into the proxy, no storage; duetkit views then keep their state through the
 * server), no popups, no top navigation. A `sandbox` the host sends in `sandbox-resource-ready` is
 * ignored: it could only loosen this.
 */
export const INNER_SANDBOX = 'allow-scripts allow-forms'

/**
 * The CSP for a host page that frames the proxy at `sandboxOrigins`: it frames nothing else (so a
 * proxy that were made to navigate cannot leave the sandbox origin) and nobody frames it (so no
 * foreign site can overlay it and have a person click its buttons).
 */
export function hostPageCsp(sandboxOrigins: string[]): string {
  return [`frame-src ${sandboxOrigins.join(' ')}`, "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"].join('; ')
}

/**
 * The sandbox proxy's script. It runs on the sandbox origin inside the host page's outer iframe,
 * loads the view's HTML (with the capture script on top) as the srcdoc of an opaque-origin inner
 * iframe, which inherits this document's CSP, and relays messages: host→view only from the parent
 * window at a host origin, view→host only from the inner frame, always addressed to the host's
 * origin. View diagnostics are checked and counted on the way; the proxy's own CSP violations
 * (a view navigating its frame somewhere its CSP forbids) are reported the same way.
 */
function proxyScript(hostOrigins: string[]): string {
  return `(() => {
  const HOSTS = ${JSON.stringify(hostOrigins)};
  const DIAGNOSTIC = ${JSON.stringify(VIEW_DIAGNOSTIC)};
  const CAPTURE = ${JSON.stringify(`<script>${CAPTURE_SCRIPT}</script>`)};
  const insertAtTop = ${insertAtTop.toString()};
  const fail = (why) => { document.body.textContent = 'duet dev sandbox: ' + why; };
  if (window.parent === window) return fail('this page only runs inside the duet dev host.');
  const ancestor = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : new URL(document.referrer || 'null:').origin;
  const hostOrigin = HOSTS.find((o) => o === ancestor);
  if (!hostOrigin) return fail('embedded by ' + ancestor + ', which is not the dev host.');
  try { void window.top.document; return fail('the sandbox shares an origin with the host; refusing to run.'); } catch {}
  let inner = null;
  let reported = 0;
  const report = (d) => {
    reported += 1;
    if (reported > ${MAX_DIAGNOSTICS + 1}) return;
    const msg = reported > ${MAX_DIAGNOSTICS}
      ? { type: DIAGNOSTIC, level: 'warning', kind: 'console', text: 'more than ${MAX_DIAGNOSTICS} errors from this view; the rest are not shown' }
      : { type: DIAGNOSTIC, level: d.level === 'warning' ? 'warning' : 'error', kind: String(d.kind), text: String(d.text).slice(0, ${MAX_DIAGNOSTIC_TEXT + 1}) };
    window.parent.postMessage(msg, hostOrigin);
  };
  const ALLOW = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  const load = (params) => {
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', ${JSON.stringify(INNER_SANDBOX)});
    const allow = Object.keys((params && params.permissions) || {}).filter((k) => ALLOW[k]).map((k) => ALLOW[k]);
    if (allow.length) inner.setAttribute('allow', allow.join('; '));
    inner.srcdoc = insertAtTop(String(params.html), CAPTURE);
    document.body.appendChild(inner);
  };
  document.addEventListener('securitypolicyviolation', (e) =>
    report({ level: 'error', kind: 'csp', text: 'CSP blocked ' + (e.blockedURI || 'inline code') + ' (' + e.effectiveDirective + ')' }));
  window.addEventListener('message', (event) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      const msg = event.data;
      if (msg && msg.method === 'ui/notifications/sandbox-resource-ready') { if (!inner) load(msg.params || {}); return; }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(msg, '*');
    } else if (inner && event.source === inner.contentWindow) {
      const msg = event.data;
      if (msg && typeof msg === 'object' && msg.type === DIAGNOSTIC) { if (typeof msg.text === 'string') report(msg); return; }
      window.parent.postMessage(msg, hostOrigin);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
})();
`
}

const SHELL =
  '<!doctype html><html><head><meta charset="utf-8"><title>duet dev sandbox</title>' +
  '<style>html,body{margin:0;padding:0;background:transparent}iframe{border:0;width:100%;height:100vh;display:block}</style>' +
  '</head><body><script src="/sandbox.js"></script></body></html>'

/**
 * Serves the sandbox origin: `/sandbox.html?csp=<json>` with the view's CSP as a response header,
 * and the proxy script. `hostOrigins` are the origins the dev host page may be opened at (read per
 * request, since the ports are known only once both servers listen).
 */
export function createSandboxHandler(hostOrigins: () => string[], allowedHosts: () => string[]): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`duet dev: Host '${req.headers.host}' is not allowed`)
      return
    }
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }
    if (url.pathname === '/sandbox.js') {
      res.writeHead(200, { ...common, 'content-type': 'text/javascript; charset=utf-8' }).end(proxyScript(hostOrigins()))
      return
    }
    if (url.pathname !== '/sandbox.html') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    let csp: string
    try {
      csp = cspFromQuery(url.searchParams.get('csp'))
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(err instanceof DuetError ? `${err.code}: ${err.message}` : 'bad csp')
      return
    }
    // The view's policy, plus: only the host page may frame the proxy.
    const policy = `${csp}; frame-ancestors ${hostOrigins().join(' ')}`
    res.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy }).end(SHELL)
  }
}
