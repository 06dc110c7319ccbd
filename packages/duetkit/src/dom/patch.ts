import type { VNode, VNodeData } from 'snabbdom'
import { HAS_HOOKS } from '../runtime/omitted.js'

/**
 * Brings one element's DOM from what `old` described to what `vnode` describes: classes, props,
 * attributes, styles, scope. On creation `old` is an empty vnode.
 */
export type ElementUpdate = (old: VNode, vnode: VNode) => void

/** Patches the DOM from the previous vnode (or, the first time, the element to replace) to `vnode`. */
export type Patch = (old: VNode | Element, vnode: VNode) => VNode

type Kids = Array<VNode | null | undefined>

const EMPTY: VNode = { sel: '', data: {}, children: [], text: undefined, elm: undefined, key: undefined }

// The same node when key and tag agree (text vnodes have neither, so any text matches any text).
const same = (a: VNode, b: VNode) => a.key === b.key && a.sel === b.sel

/**
 * A virtual-DOM patcher for the vnodes Duet's JSX makes: elements whose `sel` is a tag name (`data.ns`
 * for SVG), text vnodes, keyed or unkeyed children. It keeps snabbdom's semantics, which the vnode
 * type and the `hook` prop come from: the same matching of old children to new (both ends first,
 * then by key), so the same elements are kept, moved, made and dropped, and its hooks (`init`,
 * `create`, `insert`, `prepatch`, `update`, `postpatch`, `destroy`, `remove`) at the same moments.
 * What Duet's vnodes never carry is left out (`#id.class` selectors, comments, fragments, module
 * hooks other than create and update), which is why it is a fraction of snabbdom's size in a view.
 * One thing differs on purpose: a key given twice in one list (a view's mistake) never breaks the
 * patch, where snabbdom can throw or give one element to two vnodes. test/dom/patch.test.ts runs both
 * on the same random edits and compares DOM, kept nodes and hook calls.
 */
export function createPatcher(updates: readonly ElementUpdate[]): Patch {
  let inserted: VNode[] = []

  function create(v: VNode): Node {
    const data = v.data
    const hook = HAS_HOOKS ? data?.hook : undefined
    hook?.init?.(v)
    const tag = v.sel
    if (tag === undefined) return (v.elm = document.createTextNode(v.text!))
    const elm = (v.elm = data?.ns ? document.createElementNS(data.ns, tag) : document.createElement(tag))
    for (const update of updates) update(EMPTY, v)
    const kids = v.children as Kids | undefined
    if (v.text != null && !kids?.length) elm.appendChild(document.createTextNode(v.text))
    if (kids) for (const kid of kids) if (kid != null) elm.appendChild(create(kid))
    if (hook) {
      hook.create?.(EMPTY, v)
      if (hook.insert) inserted.push(v)
    }
    return elm
  }

  function add(parent: Node, before: Node | null, kids: Kids, from: number, to: number) {
    for (; from <= to; from++) if (kids[from] != null) parent.insertBefore(create(kids[from]!), before)
  }

  function destroy(v: VNode) {
    if (v.data === undefined) return
    v.data.hook?.destroy?.(v)
    for (const kid of (v.children ?? []) as Kids) if (kid != null) destroy(kid)
  }

  function remove(parent: Node, kids: Kids, from: number, to: number) {
    for (; from <= to; from++) {
      const kid = kids[from]
      if (kid == null) continue
      if (kid.sel === undefined) {
        parent.removeChild(kid.elm!)
        continue
      }
      if (HAS_HOOKS) destroy(kid)
      const elm = kid.elm!
      // A `remove` hook decides when the element goes (e.g. after a transition); once is enough.
      let gone = false
      const done = () => {
        if (gone) return
        gone = true
        elm.parentNode?.removeChild(elm)
      }
      const hook = HAS_HOOKS ? kid.data?.hook?.remove : undefined
      if (hook) hook(kid, done)
      else done()
    }
  }

  // Matches old children to new from both ends, then by key; moves, makes and drops what is left.
  function children(parent: Node, old: Kids, kids: Kids) {
    let os = 0
    let oe = old.length - 1
    let ns = 0
    let ne = kids.length - 1
    let byKey: Record<PropertyKey, number> | undefined
    // An old child a key names, unless it was used already. With unique keys that never happens; a key
    // given twice could name one already matched (snabbdom then throws or gives one element to two
    // vnodes), and the new child is made instead.
    const unused = (i: number | undefined) => (i !== undefined && i >= os && i <= oe && old[i] ? i : undefined)
    while (os <= oe && ns <= ne) {
      const a = old[os]
      const b = old[oe]
      const c = kids[ns]
      const d = kids[ne]
      if (a == null) os++
      else if (b == null) oe--
      else if (c == null) ns++
      else if (d == null) ne--
      else if (same(a, c)) {
        patchNode(a, c)
        os++
        ns++
      } else if (same(b, d)) {
        patchNode(b, d)
        oe--
        ne--
      } else if (same(a, d)) {
        patchNode(a, d)
        parent.insertBefore(a.elm!, b.elm!.nextSibling)
        os++
        ne--
      } else if (same(b, c)) {
        patchNode(b, c)
        parent.insertBefore(b.elm!, a.elm!)
        oe--
        ns++
      } else {
        if (!byKey) {
          byKey = {}
          for (let i = os; i <= oe; i++) {
            const key = old[i]?.key
            if (key !== undefined) byKey[key] = i
          }
        }
        const at = unused(byKey[c.key!])
        if (at === undefined) {
          parent.insertBefore(create(c), a.elm!)
          ns++
        } else if (unused(byKey[d.key!]) === undefined) {
          parent.insertBefore(create(d), b.elm!.nextSibling)
          ne--
        } else {
          const moved = old[at]!
          if (moved.sel !== c.sel) parent.insertBefore(create(c), a.elm!)
          else {
            patchNode(moved, c)
            old[at] = undefined
            parent.insertBefore(moved.elm!, a.elm!)
          }
          ns++
        }
      }
    }
    if (ns <= ne) add(parent, kids[ne + 1]?.elm ?? null, kids, ns, ne)
    if (os <= oe) remove(parent, old, os, oe)
  }

  function patchNode(old: VNode, v: VNode) {
    const hook = HAS_HOOKS ? v.data?.hook : undefined
    hook?.prepatch?.(old, v)
    const elm = (v.elm = old.elm!)
    if (old === v) return
    if (v.data !== undefined || (v.text !== undefined && v.text !== old.text)) {
      v.data ??= {} as VNodeData
      old.data ??= {} as VNodeData
      if (v.sel !== undefined) for (const update of updates) update(old, v)
      hook?.update?.(old, v)
    }
    const was = old.children as Kids | undefined
    const kids = v.children as Kids | undefined
    if (v.text === undefined) {
      if (was && kids) {
        if (was !== kids) children(elm, was, kids)
      } else if (kids) {
        if (old.text !== undefined) elm.textContent = ''
        add(elm, null, kids, 0, kids.length - 1)
      } else if (was) remove(elm, was, 0, was.length - 1)
      else if (old.text !== undefined) elm.textContent = ''
    } else if (old.text !== v.text) {
      if (was) remove(elm, was, 0, was.length - 1)
      elm.textContent = v.text
    }
    hook?.postpatch?.(old, v)
  }

  return (old, v) => {
    inserted = []
    // The first time, the element to replace stands for an empty vnode of its tag.
    const from: VNode = 'nodeType' in old ? { sel: old.tagName.toLowerCase(), data: {}, children: [], text: undefined, elm: old, key: undefined } : old
    if (same(from, v)) patchNode(from, v)
    else {
      const elm = from.elm!
      const parent = elm.parentNode
      create(v)
      if (parent) {
        parent.insertBefore(v.elm!, elm.nextSibling)
        remove(parent, [from], 0, 0)
      }
    }
    if (HAS_HOOKS) for (const made of inserted) made.data!.hook!.insert!(made)
    return v
  }
}
