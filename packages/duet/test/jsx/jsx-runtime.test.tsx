import { describe, it, expect } from 'vitest'
import { jsx, Fragment } from 'duet/jsx-runtime'
import { DuetError } from 'duet'

describe('JSX automatic runtime', () => {
  it('maps className, id, style, data, aria, role and DOM properties to snabbdom modules', () => {
    const v = (
      <button type="button" className="day" id="b1" style={{ color: 'red' }} data={{ date: 'Mon', n: 3 }} aria-pressed={true} aria-expanded={false} role="tab" disabled={false} value="x">
        Mon
      </button>
    )
    expect(v.sel).toBe('button')
    expect(v.data!.props).toEqual({ type: 'button', className: 'day', id: 'b1', disabled: false, value: 'x' })
    expect(v.data!.style).toEqual({ color: 'red' })
    expect(v.data!.dataset).toEqual({ date: 'Mon', n: '3' })
    // Booleans on aria-* are spelled out: an empty aria-pressed attribute would read as "true" only by accident.
    expect(v.data!.attrs).toEqual({ 'aria-pressed': 'true', 'aria-expanded': 'false', role: 'tab' })
    expect(v.text).toBe('Mon')
  })

  it('takes class as a string or as a class-module object, and checked as a property', () => {
    const a = <div class="a b" />
    const b = <div class={{ on: true, off: false }} />
    const c = <input type="checkbox" checked />
    expect(a.data!.props).toEqual({ className: 'a b' })
    expect(b.data!.class).toEqual({ on: true, off: false })
    expect(c.data!.props).toEqual({ type: 'checkbox', checked: true })
  })

  it('keeps key on the vnode, flattens fragments and arrays, skips null/false/true and turns numbers into text', () => {
    const items = ['a', 'b']
    const v = (
      <ul>
        {items.map((i) => <li key={i}>{i}</li>)}
        <>
          <li key="c">c</li>
          {null}
          {false}
          {true}
        </>
        {undefined}
        {42}
      </ul>
    )
    const kids = v.children as any[]
    expect(kids.map((k) => k.key ?? k.text)).toEqual(['a', 'b', 'c', '42'])
    expect(kids[3].sel).toBeUndefined()
    expect(Array.isArray(Fragment({ children: [<b />, 'x'] }))).toBe(true)
  })

  it('keeps several text children as text vnodes', () => {
    const day = { date: 'Mon', high: 21 }
    const v = <li>{day.date}: {day.high}°</li>
    expect((v.children as any[]).map((c) => c.text).join('')).toBe('Mon: 21°')
  })

  it('rejects inline event handlers with a coded error that points at the intent', () => {
    let error: unknown
    try {
      jsx('button', { onClick: () => {} })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(DuetError)
    expect((error as DuetError).code).toBe('DUET_INLINE_HANDLER')
    expect((error as DuetError).message).toContain("DOM.click('selector')")
  })

  it('does not mistake props that merely start with "on" for handlers', () => {
    expect(jsx('input', { one: 1 } as any).data!.props).toEqual({ one: 1 })
  })
})
