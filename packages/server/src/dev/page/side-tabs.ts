import { h } from './dom.js'

/** One tab of the left column: a label, what it shows, and what to do each time it is shown. */
export interface SideTab {
  id: string
  label: string
  element: HTMLElement
  onShow?(): void
}

/** Tools, resources and prompts share the left column; one is shown at a time, the first at start. */
export function sideTabs(tabs: SideTab[]): HTMLElement {
  const bar = h('div', { class: 'side-tabs', role: 'tablist' })
  const panes = tabs.map((t) => h('div', { role: 'tabpanel', 'data-testid': `side-pane-${t.id}` }, t.element))
  const buttons = tabs.map((t, i) => {
    const b = h('button', { type: 'button', role: 'tab', 'data-testid': `side-tab-${t.id}` }, t.label)
    b.addEventListener('click', () => show(i))
    return b
  })
  const show = (index: number) => {
    tabs.forEach((_, i) => {
      buttons[i].setAttribute('aria-selected', String(i === index))
      panes[i].hidden = i !== index
    })
    tabs[index].onShow?.()
  }
  bar.append(...buttons)
  show(0)
  return h('div', {}, bar, ...panes)
}
