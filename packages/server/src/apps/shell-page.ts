// The display shell's page around its script: built into dist/assets/ by scripts/build-assets.js.
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

/** The whole shell document for a bundled script (no network, no eval). */
export function shellPage(script: string): string {
  const safe = script.replace(/<\/script/gi, '<\\/script')
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Duet</title><style>${CSS}</style></head><body><div id="duet-status" role="status">Loading…</div>` +
    `<div id="duet-error" role="alert"></div><div id="duet-root"></div><script>${safe}</script></body></html>`
  )
}
