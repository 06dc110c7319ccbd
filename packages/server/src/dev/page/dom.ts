/** Creates an element with attributes and children; the page's only DOM helper. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue
    el.setAttribute(k, v === true ? '' : v)
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c)
  return el
}

/** Pretty JSON for the panels. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value)
}
