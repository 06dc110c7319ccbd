// biome-ignore-all lint/a11y: these lines test attribute types, not markup
// biome-ignore-all lint/security/noBlankTarget: a type test of the target attribute
// Type tests of JSX elements and component tags, checked by `tsc -p packages/duetkit/tsconfig.json`
// (vitest does not collect this file: several lines below would throw if run, which is the point).
import { expectTypeOf } from 'vitest'
import type { VNode } from 'snabbdom'
import { Collection, type Component } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'

export const elements = (): VNode[] => [
  <button type="button" className="day" disabled={false} data={{ date: 'Mon', n: 1 }} aria-pressed={true}>
    Mon
  </button>,
  <input type="text" value="x" checked={false} placeholder="city" />,
  <label htmlFor="city" for="city">
    City
  </label>,
  <div class={{ active: true, hidden: false }} style={{ color: 'red', '--accent': '#09f' }} role="list" tabindex={0} data-id="7" key="k" />,
  <td colSpan={2}>
    {1}
    {'two'}
    {null}
    {false}
    {[<i />, 'x']}
  </td>,
  <a href="/x" target="_blank">
    link
  </a>,
  <svg viewBox="0 0 10 10" width={10}>
    <path d="M0 0L10 10" stroke="currentColor" stroke-width={2} fill="none" />
    <circle cx={5} cy={5} r={2} />
  </svg>,
  // @ts-expect-error a boolean property takes a boolean, not a string
  <button disabled="yes" />,
  // @ts-expect-error an attribute the element does not have
  <button colour="red" />,
  // @ts-expect-error no inline handlers: events are read in the intent
  <button onClick={() => {}} />,
  // @ts-expect-error no inline handlers, whatever the case
  <input oninput={() => {}} />,
  // @ts-expect-error a number where the DOM property is a string
  <input value={3} />,
  // @ts-expect-error raw HTML does not go through JSX
  <div innerHTML="<b>x</b>" />,
  // @ts-expect-error style is an object of CSS properties
  <p style={{ colour: 'red' }} />,
  // @ts-expect-error data values are strings, numbers or booleans
  <p data={{ when: new Date() }} />,
  // @ts-expect-error an element name HTML and SVG do not have
  <buton />,
  // @ts-expect-error a geometry attribute of another SVG element
  <circle d="M0 0" />,
]

interface CounterState {
  n: number
}
declare const Counter: Component<CounterState, { label: string }>
declare const Row: Component<{ id: number; text: string }, { editable: boolean }>

export const tags = (): VNode[] => [
  <Counter label="a" />,
  <Counter label="a" state="left" key={1} />,
  <Counter label="a" state={{ get: (s: { d: number }) => ({ n: s.d / 2 }), set: (s: { d: number }, v: CounterState) => ({ ...s, d: v.n * 2 }) }} />,
  <Collection of={Row} from="rows" editable />,
  // @ts-expect-error a prop the component does not declare
  <Counter label="a" colour="red" />,
  // @ts-expect-error a declared prop is required
  <Counter />,
  // @ts-expect-error the prop's type
  <Counter label={1} />,
  // @ts-expect-error a lens must give the child's state
  <Counter label="a" state={{ get: (s: { d: string }) => s.d, set: (s: { d: string }, v: string) => ({ ...s, d: v }) }} />,
  // @ts-expect-error Collection passes the item component's props to every item
  <Collection of={Row} from="rows" />,
  // @ts-expect-error Collection needs `from`
  <Collection of={Row} editable />,
]

expectTypeOf<JSX.Element>().toEqualTypeOf<VNode>()
expectTypeOf<JSX.IntrinsicElements['button']['disabled']>().toEqualTypeOf<boolean | undefined>()
expectTypeOf<JSX.IntrinsicElements['input']['value']>().toEqualTypeOf<string | undefined>()
