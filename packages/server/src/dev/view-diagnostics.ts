/**
 * What a view's own document reports about itself — console errors and warnings, uncaught
 * exceptions, unhandled rejections, CSP violations, resources that failed to load — carried from the
 * sandboxed view to the host page without loosening the sandbox: a small script the sandbox proxy
 * puts at the top of the view's HTML posts each one to the proxy, the proxy checks its shape and
 * relays it to the host page, which accepts it only from its own sandbox frame.
 *
 * No Node imports: the dev page (a browser bundle) and the proxy share this file.
 */

/** The `type` of the postMessage envelope; not JSON-RPC, so the AppBridge's transport ignores it. */
export const VIEW_DIAGNOSTIC = 'duet/view-diagnostic'

/** Where a diagnostic came from in the view. */
export type ViewDiagnosticKind = 'console' | 'uncaught' | 'unhandledrejection' | 'csp' | 'resource'

/** One report from the view, as the host page receives it. `level` uses MCP's logging levels. */
export interface ViewDiagnostic {
  type: typeof VIEW_DIAGNOSTIC
  level: 'error' | 'warning'
  kind: ViewDiagnosticKind
  text: string
}

/** Longest `text` kept; a view that logs a megabyte must not stall the host page. */
export const MAX_DIAGNOSTIC_TEXT = 2000
/** Reports relayed per view document; past that the proxy sends one notice and drops the rest. */
export const MAX_DIAGNOSTICS = 200

const KINDS: readonly string[] = ['console', 'uncaught', 'unhandledrejection', 'csp', 'resource']

/** The diagnostic in `data`, clipped, or undefined when `data` is anything else. */
export function parseViewDiagnostic(data: unknown): ViewDiagnostic | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const d = data as Record<string, unknown>
  if (d.type !== VIEW_DIAGNOSTIC || typeof d.text !== 'string' || typeof d.kind !== 'string' || !KINDS.includes(d.kind)) return undefined
  const level = d.level === 'warning' ? 'warning' : 'error'
  const text = d.text.length > MAX_DIAGNOSTIC_TEXT ? `${d.text.slice(0, MAX_DIAGNOSTIC_TEXT)}…` : d.text
  return { type: VIEW_DIAGNOSTIC, level, kind: d.kind as ViewDiagnosticKind, text }
}

const LABELS: Record<ViewDiagnosticKind, string> = {
  console: 'console',
  uncaught: 'uncaught exception',
  unhandledrejection: 'unhandled rejection',
  csp: 'CSP violation',
  resource: 'failed to load',
}

/** How the Logs panel titles a diagnostic, e.g. "view: uncaught exception (error)". */
export function diagnosticLabel(d: ViewDiagnostic): string {
  return `view: ${LABELS[d.kind]} (${d.level})`
}

/**
 * The capture script, as source for an inline `<script>` (the spec's CSP always allows inline
 * scripts in a view). It runs before the view's own scripts, so a throw at startup is caught too,
 * and it posts to `parent` (the proxy) with `"*"`: the view's origin is opaque, and the proxy checks
 * the sender by window, not by origin.
 */
export const CAPTURE_SCRIPT = `(() => {
  const send = (level, kind, text) => { try { parent.postMessage({ type: ${JSON.stringify(VIEW_DIAGNOSTIC)}, level, kind, text: String(text).slice(0, ${MAX_DIAGNOSTIC_TEXT + 1}) }, '*'); } catch {} };
  const show = (v) => {
    if (v instanceof Error) return v.stack && v.stack.includes(v.message) ? v.stack : v.name + ': ' + v.message;
    if (typeof v === 'string') return v;
    try { return JSON.stringify(v); } catch { return String(v); }
  };
  for (const [method, level] of [['error', 'error'], ['warn', 'warning']]) {
    const original = console[method];
    console[method] = function (...args) { send(level, 'console', args.map(show).join(' ')); return original.apply(this, args); };
  }
  addEventListener('error', (e) => {
    const el = e.target;
    if (el && el !== window && el.tagName) { send('error', 'resource', 'failed to load <' + el.tagName.toLowerCase() + '> ' + (el.src || el.href || '')); return; }
    // A stack already says where; a bare message (a thrown string, a script error) gets the place.
    const where = e.error instanceof Error && e.error.stack ? '' : e.lineno ? ' (line ' + e.lineno + ':' + e.colno + ')' : '';
    send('error', 'uncaught', (e.error !== undefined && e.error !== null ? show(e.error) : e.message) + where);
  }, true);
  addEventListener('unhandledrejection', (e) => send('error', 'unhandledrejection', 'unhandled rejection: ' + show(e.reason)));
  document.addEventListener('securitypolicyviolation', (e) =>
    send('error', 'csp', 'CSP blocked ' + (e.blockedURI || 'inline code') + ' (' + e.effectiveDirective + ')' + (e.lineNumber ? ' at line ' + e.lineNumber : '')));
})();`

/**
 * `html` with `tag` as the first thing the parser runs: after `<head>` (or `<html>`, or the
 * doctype — never before it, which would drop the page into quirks mode), else at the start.
 * Self-contained on purpose: the sandbox proxy embeds this very function's source.
 */
export function insertAtTop(html: string, tag: string): string {
  const at = /<head(\s[^>]*)?>/i.exec(html) ?? /<html(\s[^>]*)?>/i.exec(html) ?? /<!doctype[^>]*>/i.exec(html)
  if (!at) return tag + html
  const end = at.index + at[0].length
  return html.slice(0, end) + tag + html.slice(end)
}

/** `html` with the capture script at its top, as the sandbox proxy loads it. */
export function withCaptureScript(html: string): string {
  return insertAtTop(html, `<script>${CAPTURE_SCRIPT}</script>`)
}
