import type { VNode } from 'snabbdom'
import { classesOf, idOf, tagOf } from './vnode-query.js'

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])
const PROP_ATTR: Record<string, string> = { htmlFor: 'for', className: '', id: '' }

/** Serialises a rendered vnode tree as HTML, the way the DOM would show it. */
export function toHtml(v: VNode | undefined): string {
  if (!v) return ''
  if (v.sel === undefined) return escapeHtml(v.text ?? '')
  if (v.sel === '!') return `<!--${escapeHtml(v.text ?? '')}-->`
  const tag = tagOf(v)
  const d = v.data ?? {}
  const attrs: [string, string | true][] = []
  const id = idOf(v)
  if (id !== undefined) attrs.push(['id', id])
  const cls = classesOf(v).join(' ')
  if (cls) attrs.push(['class', cls])
  for (const k in d.props ?? {}) {
    const name = PROP_ATTR[k] ?? k.toLowerCase()
    const val = d.props![k]
    if (!name || val == null || val === false) continue
    attrs.push([name, val === true ? true : String(val)])
  }
  for (const k in d.attrs ?? {}) {
    const val = d.attrs![k]
    if (k !== 'class' && k !== 'id' && val !== false && val != null) attrs.push([k, val === true ? true : String(val)])
  }
  for (const k in d.dataset ?? {}) attrs.push([`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, d.dataset![k]])
  const style = Object.entries(d.style ?? {})
    .map(([k, val]) => `${k.startsWith('--') ? k : k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${val}`)
    .join('; ')
  if (style) attrs.push(['style', style])
  const open = `<${tag}${attrs.map(([k, val]) => (val === true ? ` ${k}` : ` ${k}="${escapeHtml(val)}"`)).join('')}>`
  if (VOID.has(tag)) return open
  const inner = v.text !== undefined ? escapeHtml(v.text) : (v.children ?? []).map((c) => (typeof c === 'string' ? escapeHtml(c) : toHtml(c))).join('')
  return `${open}${inner}</${tag}>`
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
