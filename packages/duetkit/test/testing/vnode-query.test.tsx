import { describe, it, expect } from 'vitest'
import { querySelector, compileSelector, matchesSelector } from '../../src/testing/vnode-query.js'
import { toHtml } from 'duetkit/testing'
import { codedError } from '../../../../test/support/coded-error.js'

const tree = (
  <main id="app">
    <ul className="days">
      <li>
        <button type="button" className="day first" data={{ date: 'Mon' }} aria-pressed={true}>
          Mon
        </button>
      </li>
      <li>
        <button type="button" className="day" data={{ date: 'Tue' }} disabled>
          Tue
        </button>
      </li>
    </ul>
    <input type="checkbox" checked name="unit-c" />
    <section>
      <p className="note">deep</p>
    </section>
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

  it('support :not(list) and :nth-child(b | odd | even | an+b), counting element siblings only', () => {
    const list = (
      <ol>
        {'text first'}
        <li className="a">1</li>
        <li className="b">2</li>
        <li className="a c">3</li>
        <li className="b">4</li>
        <li className="a">5</li>
      </ol>
    )
    const all = (sel: string) => {
      const out: string[] = []
      const compiled = compileSelector(sel)
      const kids = (list.children as any[]).filter((k) => k.sel)
      for (const k of kids) if (matchesSelector({ vnode: k, parent: { vnode: list, parent: undefined } }, compiled)) out.push(k.text)
      return out.join(',')
    }
    expect(all('li:nth-child(2)')).toBe('2')
    expect(all('li:nth-child(odd)')).toBe('1,3,5')
    expect(all('li:nth-child(even)')).toBe('2,4')
    expect(all('li:nth-child(3n+1)')).toBe('1,4')
    expect(all('li:nth-child(-n+2)')).toBe('1,2')
    expect(all('li:nth-child(n + 4)')).toBe('4,5')
    expect(all('li:not(.a)')).toBe('2,4')
    expect(all('li:not(.b, .c)')).toBe('1,5')
    expect(all('li.a:not(:nth-child(1)):not(.c)')).toBe('5')
    expect(text('ul li:nth-child(2) .day')).toContain('>Tue<')
    expect(text('main > :not(ul):not(input)')).toBe('<section><p class="note">deep</p></section>')
  })

  it('reject what they do not support with a coded error naming the selector', () => {
    expect(() => compileSelector('li:hover')).toThrow(codedError('BAD_SELECTOR', /^cannot read selector "li:hover" at ":hover"/))
    expect(() => compileSelector('li:nth-child(x)')).toThrow(codedError('BAD_SELECTOR', /^cannot read selector .* at ":nth-child\(x\)"/))
    expect(() => compileSelector('li:not(.a')).toThrow(codedError('BAD_SELECTOR', /^unclosed :not\(/))
    expect(() => compileSelector('li:not()')).toThrow(codedError('BAD_SELECTOR', /^empty selector/))
    expect(() => compileSelector('a,')).toThrow(codedError('BAD_SELECTOR', 'empty selector "a,"'))
    expect(() => compileSelector('')).toThrow(codedError('BAD_SELECTOR', 'empty selector ""'))
  })
})
