import { describe, it, expect } from 'vitest'
import { jsx, Fragment } from 'duetkit/jsx-runtime'
import { DuetError } from 'duetkit'

describe('JSX automatic runtime', () => {
  it('maps className, id, style, data, aria, role and DOM properties to snabbdom modules', () => {
    const v = (
      <button
        type="button"
        className="day"
        id="b1"
        style={{ color: 'red' }}
        data={{ date: 'Mon', n: 3 }}
        aria-pressed={true}
        aria-expanded={false}
        role="tab"
        disabled={false}
        value="x"
      >
        Mon
      </button>
    )
    expect(v.sel).toBe('button')
    expect(v.data!.props).toEqual({ type: 'button', className: 'day', id: 'b1', disabled: false, value: 'x' })
    expect(v.data!.style).toEqual({ color: 'red' })
    // Booleans on aria-* are spelled out: an empty aria-pressed attribute would read as "true" only by accident.
    // `data` becomes data-* attributes (values as strings), which the DOM exposes as `dataset`.
    expect(v.data!.attrs).toEqual({ 'data-date': 'Mon', 'data-n': '3', 'aria-pressed': 'true', 'aria-expanded': 'false', role: 'tab' })
    expect(v.data!.dataset).toBeUndefined()
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
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
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
    const v = (
      <li>
        {day.date}: {day.high}°
      </li>
    )
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
    expect((error as DuetError).code).toBe('INLINE_HANDLER')
    expect((error as DuetError).message).toContain("DOM.click('selector')")
  })

  it('does not mistake props that merely start with "on" for handlers', () => {
    expect(jsx('input', { one: 1 } as any).data!.props).toEqual({ one: 1 })
  })

  it('writes camel-cased data keys as kebab-cased data-* attributes and skips null values', () => {
    const v = <li data={{ itemId: 7, gone: null, x: false }} data-extra="e" />
    expect(v.data!.attrs).toEqual({ 'data-item-id': '7', 'data-x': 'false', 'data-extra': 'e' })
  })

  it('puts <svg> and its JSX descendants in the SVG namespace with attributes, but not inside foreignObject', () => {
    const v = (
      <svg className="chart" viewBox="0 0 10 10">
        <g>
          <path d="M0 0" className="line" aria-hidden={true} />
        </g>
        <foreignObject>
          <p className="html" title="t" />
        </foreignObject>
      </svg>
    )
    const ns = 'http://www.w3.org/2000/svg'
    const [g, fo] = v.children as any[]
    const path = g.children[0]
    const p = fo.children[0]
    expect([v.data!.ns, g.data.ns, path.data.ns, fo.data.ns]).toEqual([ns, ns, ns, ns])
    expect(v.data!.attrs).toEqual({ class: 'chart', viewBox: '0 0 10 10' })
    expect(v.data!.props).toBeUndefined()
    expect(path.data.attrs).toEqual({ d: 'M0 0', class: 'line', 'aria-hidden': 'true' })
    expect(p.data.ns).toBeUndefined()
    expect(p.data.props).toEqual({ className: 'html', title: 't' })
  })
})
