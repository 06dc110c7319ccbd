// What both conformance views share: a small card that shows what arrived, styled from the host's
// variables, and a `window.__view` record the test reads.
export interface ViewRecord {
  received: Array<{ source: string; value: any }>
  replies: Array<{ kind: string; action: string; data: any }>
  renders: number
  state: { city: string; result: string; selected: string | null; tall: boolean }
}

export const view: ViewRecord = { received: [], replies: [], renders: 0, state: { city: '', result: '', selected: null, tall: false } }
;(window as any).__view = view

const style = document.createElement('style')
style.textContent = `
  :root { color-scheme: light; --bg: var(--color-background-primary, #ffffff); --fg: var(--color-text-primary, #1a1a1a); --accent: var(--color-border-info, #2563eb); }
  :root[data-theme=dark] { --bg: var(--color-background-primary, #15171a); --fg: var(--color-text-primary, #eceff3); }
  html, body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.4 var(--font-sans, system-ui, sans-serif); }
  main { padding: 12px 16px; border-left: 4px solid var(--accent); }
  h1 { font-size: 18px; margin: 0 0 6px; }
  .tall { height: 240px; background: color-mix(in srgb, var(--accent) 15%, transparent); }
`
document.head.appendChild(style)
const main = document.createElement('main')
document.body.appendChild(main)

/** Renders the card from `view.state`. */
export function render(): void {
  const s = view.state
  main.innerHTML = ''
  const h1 = document.createElement('h1')
  h1.id = 'title'
  h1.textContent = s.city ? `Forecast for ${s.city}` : 'Forecast'
  const p = document.createElement('p')
  p.id = 'result'
  p.textContent = s.result
  const sel = document.createElement('p')
  sel.id = 'selected'
  sel.textContent = s.selected ? `Selected: ${s.selected}` : ''
  main.append(h1, p, sel)
  if (s.tall) {
    const tall = document.createElement('div')
    tall.className = 'tall'
    main.append(tall)
  }
  view.renders++
}

/** Applies a received event to the card. */
export function receive(source: string, value: any): void {
  view.received.push({ source, value: JSON.parse(JSON.stringify(value ?? null)) })
  if (source === 'tool-input') view.state.city = String(value.city ?? '')
  if (source === 'tool-result') view.state.result = (value.content ?? []).map((b: any) => b.text ?? '').join(' ')
  render()
}

render()
