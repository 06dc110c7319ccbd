/** The size the view reports in `ui/notifications/size-changed`. */
export interface ViewSize {
  width: number
  height: number
}

/**
 * Reports the document's size whenever it changes, at most once a frame. Height is measured with
 * `<html>` at `max-content`, so `height: 100%` layouts report their content, not the iframe.
 * Returns a disposer.
 *
 * A layout tied to the viewport (`min-height: 100vh` plus a margin) is taller than any iframe it
 * is given: each report makes the host grow the iframe, which grows the layout (ext-apps#502). We
 * recognise that feedback — the host applied our last height and the content overflows it by the
 * same amount as before — and stop reporting growth there, so the iframe settles.
 */
export function startAutoResize(win: Window & typeof globalThis, send: (size: ViewSize) => void): () => void {
  const doc = win.document
  const html = doc.documentElement
  let scheduled = false
  let stopped = false
  let last: ViewSize | undefined
  let overflow = 0

  const measure = () => {
    scheduled = false
    if (stopped) return
    const previous = html.style.height
    html.style.height = 'max-content'
    const height = Math.ceil(html.getBoundingClientRect().height)
    html.style.height = previous
    const width = Math.ceil(win.innerWidth)
    const viewport = Math.round(win.innerHeight)
    if (last && last.width === width && last.height === height) return
    const excess = height - viewport
    const feedback = last !== undefined && width === last.width && viewport === last.height && excess > 0 && excess === overflow
    overflow = excess
    if (feedback) return
    last = { width, height }
    send(last)
  }
  const schedule = () => {
    if (scheduled || stopped) return
    scheduled = true
    win.requestAnimationFrame(measure)
  }

  schedule()
  const observer = new win.ResizeObserver(schedule)
  observer.observe(html)
  if (doc.body) observer.observe(doc.body)
  return () => {
    stopped = true
    observer.disconnect()
  }
}
