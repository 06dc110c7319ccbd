import { pretty } from './dom.js'

/** One item of a `resources/read` result (or a prompt's embedded resource). */
export interface ResourceContent {
  uri?: string
  mimeType?: string
  text?: string
  blob?: string
  _meta?: unknown
}

/** Bytes a base64 string decodes to, without decoding it. */
export function base64Size(b64: string): number {
  const clean = b64.replace(/\s+/g, '')
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

// A one-line HTML page (a single-file build) is unreadable; one tag per line is enough to scan it.
function readableHtml(text: string): string {
  return text.includes('\n') ? text : text.replace(/>\s*</g, '>\n<')
}

/**
 * The text of a resource as a person wants to read it: JSON indented, HTML one tag per line, other
 * text as it is. Never rendered as HTML: a resource is the server's data, not the dev page's.
 */
export function readableText(text: string, mimeType = ''): string {
  if (/json/i.test(mimeType)) {
    try {
      return pretty(JSON.parse(text))
    } catch {
      return text
    }
  }
  if (/html/i.test(mimeType)) return readableHtml(text)
  return text
}

/** An error as the tabs show it: the JSON-RPC or Duet code first, then the server's message. */
export function errorText(what: string, err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; error?: unknown }
  const code = e?.code !== undefined ? ` (${String(e.code)})` : ''
  return `${what} failed${code}: ${String(e?.message ?? e?.error ?? err)}`
}

/** JSON-RPC "method not found": the server has no such feature, which is not an error worth a banner. */
export function isMethodNotFound(err: unknown): boolean {
  return (err as { code?: unknown })?.code === -32601
}
