// The operators behind duetkit's streams (stream.ts): each is the producer of its output stream and a
// listener on its input, speaking xstream's internal protocol so that xstream's own streams can be either.

/** A listener as streams talk to each other (xstream's `InternalListener`). */
export interface IL {
  out?: unknown
  _n(v: any): void
  _e(err: any): void
  _c(): void
}
/** A producer as streams start and stop it (xstream's `InternalProducer`). */
export interface Prod {
  _start(out: any): void
  _stop(): void
}

/** "Nothing here": an unset field, and a dropped value. */
export const NO: any = {}
export const noop = () => {}
/** Where a stopped operator sends: nowhere. */
export const OFF: IL = { _n: noop, _e: noop, _c: noop }

/** Runs a user function; a throw becomes an error on the stream, and NO. */
export function tryCall(f: (t: any) => any, t: any, out: IL): any {
  try {
    return f(t)
  } catch (e) {
    out._e(e)
    return NO
  }
}

/**
 * An operator: a producer for its output stream that listens to its input stream. `a` and `b` are its
 * arguments (the function, the count, the seed…) and `s` its running state, one set of names for all
 * operators because every field name stays in the bundle.
 */
export class Op implements IL, Prod {
  out: any = OFF
  // An operator's own state, set where it starts (declared only: a field would add a line to every bundle).
  declare s: any
  constructor(
    public ins: any,
    public a?: any,
    public b?: any,
  ) {}
  _start(out: any) {
    this.out = out
    this.ins._add(this)
  }
  _stop() {
    this.ins._remove(this)
    this.out = OFF
  }
  _n(t: any) {
    this.out._n(t)
  }
  _e(err: any) {
    this.out._e(err)
  }
  _c() {
    this.out._c()
  }
}

/** map(a) */
export class MapOp extends Op {
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall(this.a, t, u)
    if (r !== NO) u._n(r)
  }
}

/** filter(a) */
export class Filter extends Op {
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall(this.a, t, u)
    if (r !== NO && r) u._n(t)
  }
}

/** take(a): `s` counts. */
export class Take extends Op {
  override _start(out: any) {
    this.s = 0
    if (this.a > 0) super._start(out)
    else out._c()
  }
  override _n(t: any) {
    const u = this.out
    const m = ++this.s
    if (m <= this.a) u._n(t)
    if (m === this.a) u._c()
  }
}

/** drop(a): `s` counts. */
export class Drop extends Op {
  override _start(out: any) {
    this.s = 0
    super._start(out)
  }
  override _n(t: any) {
    if (this.s++ >= this.a) this.out._n(t)
  }
}

/** last(): `s` is the last value. */
export class Last extends Op {
  override _start(out: any) {
    this.s = NO
    super._start(out)
  }
  override _n(t: any) {
    this.s = t
  }
  override _c() {
    const u = this.out
    if (u === OFF) return
    if (this.s === NO) u._e(new Error('last() failed because input stream completed'))
    else {
      u._n(this.s)
      u._c()
    }
  }
}

/** fold(a, seed b): `s` is the accumulator. */
export class Fold extends Op {
  override _start(out: any) {
    out._n((this.s = this.b))
    super._start(out)
  }
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall((x) => this.a(this.s, x), t, u)
    if (r !== NO) u._n((this.s = r))
  }
}

/** debug(a): a spy function, a label, or nothing. */
export class Debug extends Op {
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const a = this.a
    if (typeof a === 'function') tryCall(a, t, u)
    else if (a) console.log(`${a}:`, t)
    else console.log(t)
    u._n(t)
  }
}

/** endWhen(a): completes the output when `a` emits or completes; `s` is the listener on `a`. */
export class EndWhen extends Op {
  override _start(out: any) {
    this.out = out
    const end = () => this._c()
    this.a._add((this.s = { out, _n: end, _e: (err: any) => out._e(err), _c: end }))
    // An end stream that emits, completes or errors as it starts has ended this already: the input is
    // not listened to (xstream listens to it for good).
    if (this.out === out) this.ins._add(this)
  }
  override _stop() {
    super._stop()
    this.a._remove(this.s)
  }
}

/** replaceError(a): on an error, listens to the stream `a(err)` instead. */
export class ReplaceError extends Op {
  override _e(err: any) {
    const u = this.out
    if (u === OFF) return
    try {
      this.ins._remove(this)
      ;(this.ins = this.a(err))._add(this)
    } catch (e) {
      u._e(e)
    }
  }
}

/**
 * flatten(): follows the latest inner stream (`s`, heard through listener `b`), completing once the
 * outer stream (open while `a` is false) and the current inner one have.
 */
export class Flatten extends Op {
  override _start(out: any) {
    this.a = false
    this.s = NO
    super._start(out)
  }
  override _stop() {
    super._stop()
    if (this.s !== NO) this.s._remove(this.b)
    this.s = NO
  }
  less() {
    if (this.a && this.s === NO) this.out._c()
  }
  override _n(inner: any) {
    const u = this.out
    if (u === OFF) return
    if (this.s !== NO) this.s._remove(this.b)
    ;(this.s = inner)._add(
      (this.b = {
        out: u,
        _n: (t: any) => u._n(t),
        _e: (err: any) => u._e(err),
        _c: () => {
          this.s = NO
          this.less()
        },
      }),
    )
  }
  override _c() {
    this.a = true
    this.less()
  }
}

/** remember() and startWith(b) (when `a`): hand the input's listeners straight to the output stream. */
export class Pass extends Op {
  override _start(out: any) {
    this.out = out
    if (this.a) out._n(this.b)
    this.ins._add(out)
  }
  override _stop() {
    this.ins._remove(this.out)
    this.out = OFF
  }
}
