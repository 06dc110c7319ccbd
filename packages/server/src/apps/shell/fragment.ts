/**
 * Puts an HTML fragment into `container` and runs its scripts in document order. Scripts set with
 * `innerHTML` never run, so each is re-created; one with `src` is awaited before the next starts,
 * so an inline script can rely on the library a previous tag loaded (the anchor shell raced there).
 */
export async function showFragment(container: Element, html: string): Promise<void> {
  const doc = container.ownerDocument
  container.innerHTML = html
  for (const old of Array.from(container.querySelectorAll('script'))) {
    const script = doc.createElement('script')
    for (const { name, value } of Array.from(old.attributes)) script.setAttribute(name, value)
    script.text = old.text
    const external = old.hasAttribute('src') && old.type !== 'module'
    const loaded = external
      ? new Promise<void>((resolve) => {
          // A failed load is reported by the error listener; later scripts still run.
          script.addEventListener('load', () => resolve(), { once: true })
          script.addEventListener('error', () => resolve(), { once: true })
        })
      : undefined
    // Dynamically inserted external scripts are async by default; keep them in order.
    if (external) script.async = false
    old.replaceWith(script)
    if (loaded) await loaded
  }
}

/** Inserts a compiled script into the document, which runs it at once. */
export function runScript(doc: Document, code: string): void {
  const script = doc.createElement('script')
  script.text = code
  doc.body.appendChild(script)
}
