import { describe, it, expect } from 'vitest'
import { querySelector, compileSelector } from '../../src/testing/vnode-query.js'
import { toHtml } from 'duet/testing'

const tree = (
  <main id="app">
    <ul className="days">
      <li><button type="button" className="day first" data={{ date: 'Mon' }} aria-pressed={true}>Mon</button></li>
      <li><button type="button" className="day" data={{ date: 'Tue' }} disabled>Tue</button></li>
    </ul>
    <input type="checkbox" checked name="unit-c" />
    <section><p className="note">deep</p></section>
  </main>
)

const text = (sel: string) => {
  const el = querySelector(tree, sel)
  return el ? toHtml(el.vnode) : undefined
}

describe('vnode selectors', () => {
  it('match tags, ids, classes and attributes, in document order', () => {
    expect(text('.day')).toContain('>Mon<')
    expect(text('button.day:disabled')).toContain('>Tue<')
    expect(text('#app > section .note')).toBe('<p class="note">deep</p>')
    expect(text('[data-date="Tue"]')).toContain('>Tue<')
    expect(text('[aria-pressed=true]')).toContain('>Mon<')
    expect(text('input[name^=unit]:checked')).toBe('<input type="checkbox" checked name="unit-c">')
    expect(text('[class~=first]')).toContain('>Mon<')
    expect(text('ul > .day')).toBeUndefined()
    expect(text('ul > li > .day')).toContain('>Mon<')
    expect(text('.missing, .note')).toBe('<p class="note">deep</p>')
    expect(text('section button')).toBeUndefined()
  })

  it('reject what they do not support with a coded error naming the selector', () => {
    expect(() => compileSelector('li:nth-child(2)')).toThrow(/DUET_BAD_SELECTOR: cannot read selector "li:nth-child\(2\)" at ":nth-child\(2\)"/)
    expect(() => compileSelector('a,')).toThrow(/DUET_BAD_SELECTOR/)
    expect(() => compileSelector('')).toThrow(/DUET_BAD_SELECTOR/)
  })
})
