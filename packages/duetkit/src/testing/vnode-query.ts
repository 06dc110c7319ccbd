import type { VNode } from 'snabbdom'
import { DuetError } from '../runtime/errors.js'

/**
 * CSS selectors over a snabbdom vnode tree, for renderComponent: tag, `*`, `#id`, `.class`,
 * `[attr]`, `[attr=v]` (also `^=`, `$=`, `*=`, `~=`), `:checked`, `:disabled`, `:not(list)`,
 * `:nth-child(2 | odd | even | 3n+1)`, descendant and `>` combinators, and `,` lists. Anything
 * else throws `BAD_SELECTOR`.
 */

/** An element of the rendered tree with its parent, so selectors can look upwards. */
export interface VElement {
  vnode: VNode
  parent: VElement | undefined
}

interface Compound {
  tag?: string
  ids: string[]
  classes: string[]
  attrs: { name: string; op?: string; value?: string }[]
  pseudos: string[]
  nots: CompiledSelector[]
  /** `:nth-child(an+b)` as [a, b]. */
  nths: [number, number][]
}
/** Compounds from left to right, each with the combinator that joins it to the one before. */
type Complex = { compound: Compound; combinator: ' ' | '>' }[]
export type CompiledSelector = Complex[]

const TOKEN =
  /\s*([>,])\s*|(\s+)|([a-zA-Z][\w-]*|\*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w-]+)\s*(?:([~^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*)?\]|:(checked|disabled)|:nth-child\(\s*(odd|even|[+-]?\d+|[+-]?\d*n(?:\s*[+-]\s*\d+)?)\s*\)|:not\(/y

/** `odd`, `even`, `3`, `2n+1`, `-n+3` as [a, b] of an+b. */
function parseNth(text: string): [number, number] {
  if (text === 'odd') return [2, 1]
  if (text === 'even') return [2, 0]
  const m = /^([+-]?\d*)n\s*(?:([+-])\s*(\d+))?$/.exec(text)
  if (!m) return [0, Number(text)]
  const a = m[1] === '' || m[1] === '+' ? 1 : m[1] === '-' ? -1 : Number(m[1])
  return [a, m[2] ? Number(`${m[2]}${m[3]}`) : 0]
}

/** Where the `)` closing the parenthesis opened just before `from` is, or -1. */
function closingParen(src: string, from: number): number {
  let depth = 1
  for (let i = from; i < src.length; i++) {
    if (src[i] === '(') depth++
    else if (src[i] === ')' && --depth === 0) return i
  }
  return -1
}

const cache = new Map<string, CompiledSelector>()

/** Parses a selector (cached); throws `BAD_SELECTOR` naming the part it could not read. */
export function compileSelector(selector: string): CompiledSelector {
  const hit = cache.get(selector)
  if (hit) return hit
  const list: CompiledSelector = []
  let complex: Complex = []
  let compound: Compound | undefined
  let combinator: ' ' | '>' = ' '
  const fresh = (): Compound => ({ ids: [], classes: [], attrs: [], pseudos: [], nots: [], nths: [] })
  const close = () => {
    if (compound) complex.push({ compound, combinator })
    compound = undefined
  }
  const src = selector.trim()
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < src.length) {
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(src)
    if (!m)
      throw new DuetError(
        'BAD_SELECTOR',
        `cannot read selector ${JSON.stringify(selector)} at "${src.slice(at)}"; supported: tag, #id, .class, [attr], [attr=v], :checked, :disabled, :not(…), :nth-child(…), descendant, >, ","`,
      )
    if (m[1] === ',') {
      close()
      if (!complex.length) throw new DuetError('BAD_SELECTOR', `empty part in selector ${JSON.stringify(selector)}`)
      list.push(complex)
      complex = []
      combinator = ' '
    } else if (m[1] === '>' || m[2]) {
      close()
      combinator = m[1] === '>' ? '>' : ' '
    } else {
      compound ??= fresh()
      if (m[3]) {
        if (compound.tag !== undefined) throw new DuetError('BAD_SELECTOR', `two tags in one compound of ${JSON.stringify(selector)}`)
        compound.tag = m[3].toLowerCase()
      } else if (m[4]) compound.ids.push(m[4])
      else if (m[5]) compound.classes.push(m[5])
      else if (m[6]) compound.attrs.push({ name: m[6].toLowerCase(), op: m[7], value: m[8] ?? m[9] ?? m[10] })
      else if (m[11]) compound.pseudos.push(m[11])
      else if (m[12]) compound.nths.push(parseNth(m[12]))
      else {
        const end = closingParen(src, TOKEN.lastIndex)
        if (end < 0) throw new DuetError('BAD_SELECTOR', `unclosed :not( in selector ${JSON.stringify(selector)}`)
        const inner = src.slice(TOKEN.lastIndex, end)
        compound.nots.push(compileSelector(inner))
        // The recursive call reused the sticky regex; continue after the parenthesis.
        TOKEN.lastIndex = end + 1
      }
    }
  }
  close()
  if (!complex.length) throw new DuetError('BAD_SELECTOR', `empty selector ${JSON.stringify(selector)}`)
  list.push(complex)
  cache.set(selector, list)
  return list
}

/** Whether the element matches the selector. */
export function matchesSelector(el: VElement, selector: CompiledSelector): boolean {
  return selector.some((complex) => matchComplex(el, complex, complex.length - 1))
}

function matchComplex(el: VElement, complex: Complex, i: number): boolean {
  const { compound, combinator } = complex[i]
  if (!matchCompound(el.vnode, compound)) return false
  if (compound.nots.some((not) => matchesSelector(el, not))) return false
  if (compound.nths.length) {
    const n = positionOf(el)
    // an+b matches when some k >= 0 gives n; with a = 0 only n = b does.
    if (!compound.nths.every(([a, b]) => (a === 0 ? n === b : (n - b) / a >= 0 && (n - b) % a === 0))) return false
  }
  if (i === 0) return true
  if (combinator === '>') return !!el.parent && matchComplex(el.parent, complex, i - 1)
  for (let up = el.parent; up; up = up.parent) if (matchComplex(up, complex, i - 1)) return true
  return false
}

function matchCompound(v: VNode, c: Compound): boolean {
  if (c.tag && c.tag !== '*' && tagOf(v) !== c.tag) return false
  if (c.ids.some((id) => idOf(v) !== id)) return false
  if (c.classes.length) {
    const have = classesOf(v)
    if (c.classes.some((cls) => !have.includes(cls))) return false
  }
  for (const a of c.attrs) {
    const got = attributeOf(v, a.name)
    if (got === undefined) return false
    if (a.op && !compare(got, a.op, a.value ?? '')) return false
  }
  return c.pseudos.every((p) => !!v.data?.props?.[p])
}

/** The element's 1-based position among its parent's element children. */
function positionOf(el: VElement): number {
  if (!el.parent) return 1
  const siblings = ((el.parent.vnode.children ?? []) as VNode[]).filter((k) => typeof k === 'object' && k.sel !== undefined && k.sel !== '!')
  return siblings.indexOf(el.vnode) + 1
}

function compare(got: string, op: string, want: string): boolean {
  if (op === '=') return got === want
  if (op === '^=') return want !== '' && got.startsWith(want)
  if (op === '$=') return want !== '' && got.endsWith(want)
  if (op === '*=') return want !== '' && got.includes(want)
  return got.split(/\s+/).includes(want)
}

/** The element's tag name, lowercase (snabbdom selectors may carry `#id.class` after it). */
export function tagOf(v: VNode): string {
  return (v.sel ?? '').split(/[#.]/, 1)[0].toLowerCase()
}

export function idOf(v: VNode): string | undefined {
  const fromSel = /#([\w-]+)/.exec(v.sel ?? '')?.[1]
  return v.data?.props?.id ?? v.data?.attrs?.id?.toString() ?? fromSel
}

/** Every class of the element: from its selector, `className`, the class module and `class` attribute. */
export function classesOf(v: VNode): string[] {
  const out = [...(v.sel ?? '').matchAll(/\.([\w-]+)/g)].map((m) => m[1])
  const d = v.data ?? {}
  for (const s of [d.props?.className, d.attrs?.class]) if (typeof s === 'string') out.push(...s.split(/\s+/).filter(Boolean))
  for (const k in d.class ?? {}) if (d.class![k]) out.push(k)
  return out
}

/** An attribute as the DOM would show it; undefined when absent. */
export function attributeOf(v: VNode, name: string): string | undefined {
  const d = v.data ?? {}
  if (name === 'class') return classesOf(v).join(' ') || undefined
  if (name === 'id') return idOf(v)
  if (name.startsWith('data-') && d.dataset) {
    const key = name.slice(5).replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase())
    if (d.dataset[key] !== undefined) return d.dataset[key]
  }
  const attr = d.attrs?.[name]
  if (attr !== undefined && attr !== false) return attr === true ? '' : String(attr)
  const prop = d.props?.[name === 'for' ? 'htmlFor' : name]
  if (prop === undefined || prop === null || prop === false) return undefined
  return prop === true ? '' : String(prop)
}

/** The first element in document order that matches, or undefined. */
export function querySelector(root: VNode | undefined, selector: string): VElement | undefined {
  const compiled = compileSelector(selector)
  const visit = (v: VNode, parent: VElement | undefined): VElement | undefined => {
    if (v.sel === undefined || v.sel === '!') return undefined
    const el: VElement = { vnode: v, parent }
    if (matchesSelector(el, compiled)) return el
    for (const kid of v.children ?? []) {
      const found = typeof kid === 'object' ? visit(kid, el) : undefined
      if (found) return found
    }
    return undefined
  }
  return root ? visit(root, undefined) : undefined
}
