import type { IncomingMessage, ServerResponse } from 'node:http'
import { cspFromQuery } from './csp.js'
import { DuetError } from 'duetkit/protocol'

/**
 * The sandbox proxy's script. It runs on the sandbox origin inside the host page's outer iframe,
 * writes the view's HTML into an inner iframe (which inherits the CSP header of this document), and
 * relays messages: host→view only from the parent window at a dev-host origin, view→host only from
 * the inner frame, always addressed to the host's origin.
 */
function proxyScript(hostOrigins: string[]): string {
  return `(() => {
  const HOSTS = ${JSON.stringify(hostOrigins)};
  const fail = (why) => { document.body.textContent = 'duet dev sandbox: ' + why; };
  if (window.parent === window) return fail('this page only runs inside the duet dev host.');
  const ancestor = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : new URL(document.referrer || 'null:').origin;
  const hostOrigin = HOSTS.find((o) => o === ancestor);
  if (!hostOrigin) return fail('embedded by ' + ancestor + ', which is not the dev host.');
  try { void window.top.document; return fail('the sandbox shares an origin with the host; refusing to run.'); } catch {}
  let inner = null;
  const ALLOW = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  const load = (params) => {
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    const allow = Object.keys((params && params.permissions) || {}).filter((k) => ALLOW[k]).map((k) => ALLOW[k]);
    if (allow.length) inner.setAttribute('allow', allow.join('; '));
    document.body.appendChild(inner);
    const doc = inner.contentDocument;
    doc.open();
    doc.write(String(params.html));
    doc.close();
  };
  window.addEventListener('message', (event) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      const msg = event.data;
      if (msg && msg.method === 'ui/notifications/sandbox-resource-ready') { if (!inner) load(msg.params || {}); return; }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(msg, '*');
    } else if (inner && event.source === inner.contentWindow && event.origin === location.origin) {
      window.parent.postMessage(event.data, hostOrigin);
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
    res.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(SHELL)
  }
}
