import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { duetShims } from '../build/esbuild-shims.js'
import { AgentAppsError } from './errors.js'

/** The `ui://` URI of the display shell, fixed in the listing of every tool that shows an app. */
export const SHELL_URI = 'ui://duet/display.html'

// Follows the host's style variables when it sends them, and a plain system look when it does not.
const CSS = `
:root { color-scheme: light dark; }
html, body { margin: 0; padding: 0; }
body {
  font-family: var(--font-sans, system-ui, -apple-system, "Segoe UI", sans-serif);
  font-size: var(--font-text-md-size, 15px);
  line-height: 1.45;
  color: var(--color-text-primary, CanvasText);
  background: transparent;
}
#duet-root { display: flow-root; }
#duet-status { padding: 12px 16px; color: var(--color-text-secondary, GrayText); font-size: 14px; }
#duet-error { margin: 8px; padding: 8px 12px; border-radius: 6px; font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap;
  color: var(--color-text-danger, #b42318); background: var(--color-background-danger, #fef3f2); }
#duet-status:empty, #duet-error:empty { display: none; }
`

let page: Promise<string> | undefined

// Compiled JavaScript next to this module in dist, source in src (tests); when this module was bundled
// into another file, the duet package it came from.
function shellEntry(): string {
  const candidates = [fileURLToPath(new URL('./shell/main.js', import.meta.url)), fileURLToPath(new URL('./shell/main.ts', import.meta.url))]
  try {
    const root = dirname(createRequire(import.meta.url).resolve('duet/package.json'))
    // In the workspace the source is the current one; a published package ships only dist.
    candidates.push(join(root, 'src/apps/shell/main.ts'), join(root, 'dist/apps/shell/main.js'))
  } catch {
    // Not installed as a package: the paths next to this module are all there is.
  }
  for (const file of candidates) if (existsSync(file)) return file
  throw new AgentAppsError('NOT_FOUND', 'The display shell entry (apps/shell/main.js) is missing from the duet package; reinstall duet.', { kind: 'file', name: 'apps/shell/main.js' })
}

async function bundleShell(): Promise<string> {
  const result = await build({
    entryPoints: [shellEntry()],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [duetShims()],
  })
  const script = result.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Duet</title><style>${CSS}</style></head><body><div id="duet-status" role="status">Loading…</div>` +
    `<div id="duet-error" role="alert"></div><div id="duet-root"></div><script>${script}</script></body></html>`
}

/**
 * The display shell page: one self-contained HTML document (the Duet runtime and MCP client inlined,
 * no network, no eval), built once per process. A failed build is retried on the next call.
 */
export function shellHtml(): Promise<string> {
  page ??= bundleShell().catch((err) => {
    page = undefined
    throw err
  })
  return page
}
