// @vitest-environment happy-dom
import { it, expect, beforeEach } from 'vitest'
import { readSelection, MAX_QUOTE } from './selection.js'

beforeEach(() => {
  document.body.innerHTML = `
    <p class="passage" data-paragraph="truths">We hold these <b>truths</b> to be self-evident, that all men are created equal.</p>
    <p class="passage" data-paragraph="g1">He has refused his Assent to Laws.</p>`
})

function select(startNode, startOffset, endNode, endOffset) {
  const range = document.createRange()
  range.setStart(startNode, startOffset)
  range.setEnd(endNode, endOffset)
  const selection = document.getSelection()
  selection.removeAllRanges()
  selection.addRange(range)
  return { target: startNode.parentElement ?? startNode }
}

it('reads a selection inside one passage, across inline elements', () => {
  const [first] = document.querySelectorAll('.passage')
  const text = first.firstChild // "We hold these "
  const tail = first.lastChild // " to be self-evident, ..."
  const event = select(text, 3, tail, 6)
  expect(readSelection(event)).toEqual({ paragraph: 'truths', quote: 'hold these truths to be' })
})

it('returns null for no selection, a collapsed one, or one spanning two passages', () => {
  const [first, second] = document.querySelectorAll('.passage')
  document.getSelection().removeAllRanges()
  expect(readSelection({ target: first })).toBe(null)
  expect(readSelection(select(first.firstChild, 2, first.firstChild, 2))).toBe(null)
  expect(readSelection(select(first.lastChild, 0, second.firstChild, 6))).toBe(null)
  expect(readSelection(undefined)).toBe(null)
})

it('cuts very long quotes', () => {
  document.body.innerHTML = `<p class="passage" data-paragraph="long">${'word '.repeat(400)}</p>`
  const node = document.querySelector('.passage').firstChild
  expect(readSelection(select(node, 0, node, node.length)).quote).toHaveLength(MAX_QUOTE)
})
