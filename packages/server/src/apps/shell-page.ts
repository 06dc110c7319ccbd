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

/**
 * The default look of agent-written HTML: buttons, inputs, tables, headings and code drawn with the
 * host's standard style variables (MCP Apps `styles.variables`, set on <html> by the driver), with
 * light-dark() fallbacks for hosts that send none. In a cascade layer, so any rule a fragment writes
 * wins over it whatever its specificity; `data-duet-style="none"` on any element of the fragment
 * turns it off whole. Sizes in rem/em only: the view's height follows its content.
 */
export const DEFAULT_APP_CSS = `
@layer duet-default {
:root:not([data-duet-style="none"]) #duet-root {
  --duet-fg: var(--color-text-primary, light-dark(#1f2328, #e6edf3));
  --duet-muted: var(--color-text-secondary, light-dark(#59636e, #9198a1));
  --duet-bg2: var(--color-background-secondary, light-dark(#f6f8fa, #151b23));
  --duet-bg3: var(--color-background-tertiary, light-dark(#eff2f5, #212830));
  --duet-border: var(--color-border-primary, light-dark(#d1d9e0, #3d444d));
  --duet-ring: var(--color-ring-primary, light-dark(#0969da, #4493f8));
  --duet-radius: var(--border-radius-md, 0.375rem);
  --duet-bw: var(--border-width-regular, 1px);
  padding: 0.75rem 1rem;
  color: var(--duet-fg);
}
:root:not([data-duet-style="none"]) #duet-root :where(h1, h2, h3, h4) { margin: 0.8em 0 0.4em; font-weight: var(--font-weight-semibold, 600); line-height: 1.25; }
:root:not([data-duet-style="none"]) #duet-root :where(h1) { font-size: var(--font-heading-lg-size, 1.5rem); }
:root:not([data-duet-style="none"]) #duet-root :where(h2) { font-size: var(--font-heading-md-size, 1.25rem); }
:root:not([data-duet-style="none"]) #duet-root :where(h3, h4) { font-size: var(--font-heading-sm-size, 1.1rem); }
:root:not([data-duet-style="none"]) #duet-root :where(p, ul, ol, table, pre, blockquote) { margin: 0 0 0.75em; }
:root:not([data-duet-style="none"]) #duet-root :where(a) { color: var(--color-text-info, var(--duet-ring)); }
:root:not([data-duet-style="none"]) #duet-root :where(button, input, select, textarea) {
  font: inherit; color: var(--duet-fg); border: var(--duet-bw) solid var(--duet-border);
  border-radius: var(--duet-radius); padding: 0.35em 0.75em; background: var(--color-background-primary, Canvas);
}
:root:not([data-duet-style="none"]) #duet-root :where(button) {
  cursor: pointer; background: var(--duet-bg2); font-weight: var(--font-weight-medium, 500);
}
:root:not([data-duet-style="none"]) #duet-root :where(button:hover:not(:disabled)) { background: var(--duet-bg3); }
:root:not([data-duet-style="none"]) #duet-root :where(button:disabled, input:disabled, select:disabled, textarea:disabled) {
  color: var(--color-text-disabled, var(--duet-muted)); cursor: default; opacity: 0.7;
}
:root:not([data-duet-style="none"]) #duet-root :where(button, input, select, textarea, a):focus-visible { outline: 2px solid var(--duet-ring); outline-offset: 1px; }
:root:not([data-duet-style="none"]) #duet-root :where(table) { border-collapse: collapse; }
:root:not([data-duet-style="none"]) #duet-root :where(th, td) { border-bottom: var(--duet-bw) solid var(--duet-border); padding: 0.35em 0.6em; text-align: start; }
:root:not([data-duet-style="none"]) #duet-root :where(th) { font-weight: var(--font-weight-semibold, 600); background: var(--duet-bg2); }
:root:not([data-duet-style="none"]) #duet-root :where(code, kbd, pre) { font-family: var(--font-mono, ui-monospace, "SFMono-Regular", Menlo, monospace); font-size: 0.9em; }
:root:not([data-duet-style="none"]) #duet-root :where(code) { background: var(--duet-bg2); border-radius: var(--border-radius-sm, 0.25rem); padding: 0.1em 0.3em; }
:root:not([data-duet-style="none"]) #duet-root :where(pre) { background: var(--duet-bg2); border-radius: var(--duet-radius); padding: 0.75em; overflow-x: auto; }
:root:not([data-duet-style="none"]) #duet-root :where(pre code) { background: none; padding: 0; }
:root:not([data-duet-style="none"]) #duet-root :where(hr) { border: 0; border-top: var(--duet-bw) solid var(--duet-border); }
:root:not([data-duet-style="none"]) #duet-root :where(blockquote) { border-inline-start: 3px solid var(--duet-border); padding-inline-start: 0.75em; color: var(--duet-muted); }
}
`

/** The whole shell document for a bundled script (no network, no eval). */
export function shellPage(script: string): string {
  const safe = script.replace(/<\/script/gi, '<\\/script')
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Duet</title><style>${CSS}${DEFAULT_APP_CSS}</style></head><body><div id="duet-status" role="status">Loading…</div>` +
    `<div id="duet-error" role="alert"></div><div id="duet-root"></div><script>${safe}</script></body></html>`
  )
}
