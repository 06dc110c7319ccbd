import type { MemoryStream as XMemoryStream, Stream as XStream } from 'xstream'
import { Debug, Drop, EndWhen, Filter, Flatten, Fold, type IL, Last, MapOp, NO, noop, OFF, Pass, type Prod, ReplaceError, Take } from './stream-operators.js'

// duetkit's streams: xstream's API and semantics (synchronous, hot, ref-counted, stopped one macrotask
// after the last listener leaves), in about half its minified size. xstream's own module cannot be
// tree-shaken (every operator is a method) and pulls in two polyfill packages, so a view paid for all of
// it. The types are xstream's own, and the internal protocol (`_add`/`_remove`, listeners with
// `_n`/`_e`/`_c`, producers with `_start`/`_stop`) is too, so these streams and xstream's mix both ways:
// `xs.merge` from either side, and the `xstream/extra/*` operators through `.compose`. The differential
// test (test/runtime/stream.test.ts) runs each operator on both and compares what they emit.

// The interop symbol, found or registered the way the `symbol-observable` package does it, so RxJS and
// friends read these streams as observables.
const Sym = Symbol as any
const $$observable: symbol = Sym.observable || Sym.for('https://github.com/benlesh/symbol-observable')
try {
  Sym.observable = $$observable
} catch {}

const copy = <T>(a: T[]): T[] => a.slice()
const internal = (l: any) => {
  l._n = l.next || noop
  l._e = l.error || noop
  l._c = l.complete || noop
  return l
}
// A user producer (`start`/`stop`) given the internal face streams call.
const internalize = (p: any) => {
  p._start = function (il: any) {
    il.next = il._n
    il.error = il._e
    il.complete = il._c
    this.start(il)
  }
  p._stop = p.stop
  return p
}

class Stream implements IL {
  // Declared only (the constructor sets it), as Op's fields: a field would add its name to every bundle.
  declare _prod: Prod
  _ils: IL[] = []
  _stopID: any = NO
  _dl: IL = NO
  _d = false
  _target: any = null
  _err: any = NO
  // A MemoryStream's last value (`_has` stays undefined on a plain stream, which _add relies on).
  declare _has?: boolean
  declare _v?: any
  constructor(producer?: Prod) {
    this._prod = producer || NO
  }
  _n(t: any) {
    const a = this._ils
    if (this._d) this._dl._n(t)
    for (const l of copy(a)) l._n(t)
  }
  _e(err: any) {
    if (this._err !== NO) return
    this._err = err
    const a = this._ils
    this._x()
    if (this._d) this._dl._e(err)
    for (const l of copy(a)) l._e(err)
  }
  _c() {
    const a = this._ils
    this._x()
    if (this._d) this._dl._c()
    for (const l of copy(a)) l._c()
  }
  _x() {
    if (!this._ils.length) return
    if (this._prod !== NO) this._prod._stop()
    this._err = NO
    this._ils = []
  }
  _stopNow() {
    this._prod._stop()
    this._err = NO
    this._stopID = NO
  }
  _add(il: IL): unknown {
    const ta = this._target
    if (ta) return ta._add(il)
    const a = this._ils
    a.push(il)
    // A MemoryStream hands its last value to each new listener; the first one starts the producer,
    // or cancels its pending stop.
    if (a.length > 1) {
      if (this._has) il._n(this._v)
      return
    }
    if (this._stopID !== NO) {
      if (this._has) il._n(this._v)
      clearTimeout(this._stopID)
      this._stopID = NO
    } else if (this._has) il._n(this._v)
    else if (this._prod !== NO) this._prod._start(this)
  }
  _remove(il: IL): unknown {
    const ta = this._target
    if (ta) return ta._remove(il)
    const a = this._ils
    const i = a.indexOf(il)
    if (i < 0) return
    a.splice(i, 1)
    if (this._prod !== NO && !a.length) {
      this._err = NO
      this._stopID = setTimeout(() => this._stopNow())
    } else if (a.length === 1) this._pruneCycles()
  }
  // A stream whose one listener leads back to itself (a cycle through imitate) has no real listener left.
  _pruneCycles() {
    if (this._hasNoSinks(this, [])) this._remove(this._ils[0]!)
  }
  _hasNoSinks(x: any, trace: any[]): boolean {
    if (trace.includes(x) || x.out === this) return true
    if (x.out && x.out !== OFF && x.out !== NO) return this._hasNoSinks(x.out, trace.concat(x))
    if (x._ils) return x._ils.every((l: IL) => this._hasNoSinks(l, trace.concat(x)))
    return false
  }
  ctor(): typeof Stream {
    return this instanceof MemoryStream ? MemoryStream : Stream
  }
  addListener(listener: any) {
    this._add(internal(listener))
  }
  removeListener(listener: any) {
    this._remove(listener)
  }
  subscribe(listener: any) {
    this.addListener(listener)
    return { unsubscribe: () => this._remove(listener) }
  }
  [$$observable]() {
    return this
  }
  static create(producer?: any) {
    if (producer && (typeof producer.start !== 'function' || typeof producer.stop !== 'function'))
      throw new Error('producer requires both start and stop functions')
    return new Stream(producer && internalize(producer))
  }
  _map(f: (t: any) => any): Stream {
    return new (this.ctor())(new MapOp(this, f))
  }
  map(f: (t: any) => any) {
    return this._map(f)
  }
  mapTo(v: any) {
    return this._map(() => v)
  }
  filter(passes: (t: any) => boolean) {
    const p = this._prod
    // Two filters in a row become one, as in xstream.
    if (p instanceof Filter) {
      const f = p.a
      return new Stream(new Filter(p.ins, (t: any) => f(t) && passes(t)))
    }
    return new Stream(new Filter(this, passes))
  }
  take(amount: number) {
    return new (this.ctor())(new Take(this, amount))
  }
  drop(amount: number) {
    return new Stream(new Drop(this, amount))
  }
  last() {
    return new Stream(new Last(this))
  }
  startWith(initial: any) {
    return new MemoryStream(new Pass(this, true, initial))
  }
  endWhen(other: any) {
    return new (this.ctor())(new EndWhen(this, other))
  }
  fold(accumulate: (acc: any, t: any) => any, seed: any) {
    return new MemoryStream(new Fold(this, accumulate, seed))
  }
  replaceError(replace: (err: any) => any) {
    return new (this.ctor())(new ReplaceError(this, replace))
  }
  flatten() {
    return new Stream(new Flatten(this))
  }
  compose(operator: (s: any) => any) {
    return operator(this)
  }
  remember(): Stream {
    return new MemoryStream(new Pass(this, false))
  }
  debug(spy?: string | ((t: any) => unknown)) {
    return new (this.ctor())(new Debug(this, spy))
  }
  imitate(target: any) {
    if (target instanceof MemoryStream || target._has !== undefined) throw new Error('imitate() takes a Stream, not a MemoryStream (see the xstream FAQ)')
    this._target = target
    for (const il of this._ils) target._add(il)
    this._ils = []
  }
  shamefullySendNext(value: any) {
    this._n(value)
  }
  shamefullySendError(error: any) {
    this._e(error)
  }
  shamefullySendComplete() {
    this._c()
  }
  setDebugListener(listener: any) {
    this._d = !!listener
    this._dl = listener ? internal(listener) : NO
  }
}

/** A stream that remembers its last value and hands it to each new listener. */
class MemoryStream extends Stream {
  override _has = false
  override _n(x: any) {
    this._v = x
    this._has = true
    super._n(x)
  }
  override _stopNow() {
    this._has = false
    super._stopNow()
  }
  override _x() {
    this._has = false
    super._x()
  }
  override remember() {
    return this
  }
}

// xstream's factories (`xs.merge`, `xs.of`, `xs.periodic`, …) are put on the class by a pure call whose
// result is the public `xs`: a view that never imports `xs` leaves them out of its bundle, where static
// methods of the class itself would ride along in every view (a bundler keeps a used class whole).
function withFactories(S: typeof Stream) {
  const factories = {
    createWithMemory(producer?: any) {
      return new MemoryStream(producer && internalize(producer))
    },
    never() {
      return new Stream({ _start: noop, _stop: noop })
    },
    empty() {
      return new Stream({ _start: (il) => il._c(), _stop: noop })
    },
    throw(error: any) {
      return new Stream({ _start: (il) => il._e(error), _stop: noop })
    },
    from(input: any) {
      if (typeof input[$$observable] === 'function') return factories.fromObservable(input)
      if (typeof input.then === 'function') return factories.fromPromise(input)
      if (Array.isArray(input)) return factories.fromArray(input)
      throw new TypeError('Type of input to from() must be an Array, Promise, or Observable')
    },
    of(...items: any[]) {
      return factories.fromArray(items)
    },
    fromArray(array: any[]) {
      return new Stream({
        _start(out) {
          for (const v of array) out._n(v)
          out._c()
        },
        _stop: noop,
      })
    },
    fromPromise(promise: PromiseLike<any>) {
      let on = false
      return new Stream({
        _start(out) {
          on = true
          promise
            .then(
              (v) => {
                if (on) {
                  out._n(v)
                  out._c()
                }
              },
              (e) => out._e(e),
            )
            .then(noop, (err) =>
              setTimeout(() => {
                throw err
              }),
            )
        },
        _stop: () => (on = false),
      })
    },
    fromObservable(obs: any) {
      if (obs.endWhen !== undefined) return obs
      const o = typeof obs[$$observable] === 'function' ? obs[$$observable]() : obs
      let sub: any
      let active = false
      return new Stream({
        _start(out) {
          active = true
          sub = o.subscribe({ next: (v: any) => out._n(v), error: (e: any) => out._e(e), complete: () => out._c() })
          if (!active) sub.unsubscribe()
        },
        _stop() {
          sub?.unsubscribe()
          active = false
        },
      })
    },
    periodic(period: number) {
      let id: any
      return new Stream({
        _start(out) {
          let i = 0
          id = setInterval(() => out._n(i++), period)
        },
        _stop: () => clearInterval(id),
      })
    },
    merge(...ins: any[]) {
      let left = 0
      let run = 0
      const m = {
        out: OFF,
        _start(out: any) {
          m.out = out
          left = ins.length
          // An input that errors as it starts stops the merge (and a listener may start it again): the
          // inputs after it are then left alone, where xstream listens to them for good.
          const mine = ++run
          for (const s of ins) if (run === mine) s._add(m)
        },
        _stop() {
          run++
          for (const s of ins) s._remove(m)
          m.out = OFF
        },
        _n: (t: any) => m.out._n(t),
        _e: (err: any) => m.out._e(err),
        _c: () => --left <= 0 && m.out._c(),
      }
      return new Stream(m)
    },
    combine(...ins: any[]) {
      let ils: IL[] = []
      let vals: any[] = []
      let waiting = 0
      let open = 0
      let run = 0
      const c = {
        out: OFF,
        _start(out: any) {
          c.out = out
          waiting = open = ins.length
          vals = ins.map(() => NO)
          if (!ins.length) {
            out._n([])
            out._c()
          }
          // As in merge: once an input's error has stopped the combine, the rest are not listened to.
          const mine = ++run
          ins.forEach((s, i) => {
            if (run !== mine) return
            const il = {
              out,
              _n(t: any) {
                if (c.out === OFF) return
                if (vals[i] === NO) waiting--
                vals[i] = t
                if (!waiting) c.out._n(copy(vals))
              },
              _e: (err: any) => c.out._e(err),
              _c: () => !--open && c.out._c(),
            }
            ils.push(il)
            s._add(il)
          })
        },
        _stop() {
          run++
          for (const [i, s] of ins.entries()) s._remove(ils[i])
          c.out = OFF
          ils = []
          vals = []
        },
      }
      return new Stream(c)
    },
  }
  return Object.assign(S, factories)
}

type StreamClass = typeof XStream
/** `xs.create`, the one factory the runtime and drivers use, so a view that imports no `xs` carries no other. */
export const createStream = Stream.create as unknown as StreamClass['create']
/** xstream's `Stream` class with every factory, as duetkit's own implementation (`xs` in intents). */
const DuetStream = /* @__PURE__ */ withFactories(Stream) as unknown as StreamClass
/** A stream, typed as xstream's. */
type DuetStream<T> = XStream<T>
/** A stream that remembers its last value, typed as xstream's. */
export type { XMemoryStream as MemoryStream }
export { DuetStream as Stream }
