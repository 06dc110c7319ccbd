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

/** An operator: a producer for its output stream that listens to its input stream. */
export class Op implements IL, Prod {
  out: any = OFF
  constructor(public ins: any) {}
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

export class MapOp extends Op {
  constructor(
    ins: any,
    public f: (t: any) => any,
  ) {
    super(ins)
  }
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall(this.f, t, u)
    if (r !== NO) u._n(r)
  }
}

export class Filter extends Op {
  constructor(
    ins: any,
    public f: (t: any) => boolean,
  ) {
    super(ins)
  }
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall(this.f, t, u)
    if (r !== NO && r) u._n(t)
  }
}

export class Take extends Op {
  i = 0
  constructor(
    ins: any,
    public max: number,
  ) {
    super(ins)
  }
  override _start(out: any) {
    this.i = 0
    if (this.max > 0) super._start(out)
    else out._c()
  }
  override _n(t: any) {
    const u = this.out
    const m = ++this.i
    if (m <= this.max) u._n(t)
    if (m === this.max) u._c()
  }
}

export class Drop extends Op {
  i = 0
  constructor(
    ins: any,
    public max: number,
  ) {
    super(ins)
  }
  override _start(out: any) {
    this.i = 0
    super._start(out)
  }
  override _n(t: any) {
    if (this.i++ >= this.max) this.out._n(t)
  }
}

export class Last extends Op {
  v: any = NO
  override _start(out: any) {
    this.v = NO
    super._start(out)
  }
  override _n(t: any) {
    this.v = t
  }
  override _c() {
    const u = this.out
    if (u === OFF) return
    if (this.v === NO) u._e(new Error('last() failed because input stream completed'))
    else {
      u._n(this.v)
      u._c()
    }
  }
}

export class Fold extends Op {
  acc: any
  constructor(
    ins: any,
    public f: (acc: any, t: any) => any,
    public seed: any,
  ) {
    super(ins)
  }
  override _start(out: any) {
    out._n((this.acc = this.seed))
    super._start(out)
  }
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const r = tryCall((x) => this.f(this.acc, x), t, u)
    if (r !== NO) u._n((this.acc = r))
  }
}

export class Debug extends Op {
  constructor(
    ins: any,
    public spy?: string | ((t: any) => unknown),
  ) {
    super(ins)
  }
  override _n(t: any) {
    const u = this.out
    if (u === OFF) return
    const s = this.spy
    if (typeof s === 'function') tryCall(s, t, u)
    else if (s) console.log(`${s}:`, t)
    else console.log(t)
    u._n(t)
  }
}

/** endWhen: completes the output when `o` emits or completes. */
export class EndWhen extends Op {
  oil: IL = OFF
  constructor(
    ins: any,
    public o: any,
  ) {
    super(ins)
  }
  override _start(out: any) {
    this.out = out
    const end = () => this._c()
    this.o._add((this.oil = { out, _n: end, _e: (err) => out._e(err), _c: end }))
    this.ins._add(this)
  }
  override _stop() {
    super._stop()
    this.o._remove(this.oil)
    this.oil = OFF
  }
}

export class ReplaceError extends Op {
  constructor(
    ins: any,
    public f: (err: any) => any,
  ) {
    super(ins)
  }
  override _e(err: any) {
    const u = this.out
    if (u === OFF) return
    try {
      this.ins._remove(this)
      ;(this.ins = this.f(err))._add(this)
    } catch (e) {
      u._e(e)
    }
  }
}

/** flatten: follows the latest inner stream, completing once the outer and the current inner have. */
export class Flatten extends Op {
  open = true
  inner: any = NO
  il: IL = OFF
  override _start(out: any) {
    this.open = true
    this.inner = NO
    this.il = OFF
    super._start(out)
  }
  override _stop() {
    super._stop()
    if (this.inner !== NO) this.inner._remove(this.il)
    this.open = true
    this.inner = NO
    this.il = OFF
  }
  less() {
    if (!this.open && this.inner === NO) this.out._c()
  }
  override _n(s: any) {
    const u = this.out
    if (u === OFF) return
    if (this.inner !== NO && this.il !== OFF) this.inner._remove(this.il)
    ;(this.inner = s)._add(
      (this.il = {
        out: u,
        _n: (t: any) => u._n(t),
        _e: (err) => u._e(err),
        _c: () => {
          this.inner = NO
          this.less()
        },
      }),
    )
  }
  override _c() {
    this.open = false
    this.less()
  }
}

/** remember() and startWith(): hand the input's listeners straight to the output stream. */
export class Pass extends Op {
  constructor(
    ins: any,
    public start: boolean,
    public first?: any,
  ) {
    super(ins)
  }
  override _start(out: any) {
    this.out = out
    if (this.start) out._n(this.first)
    this.ins._add(out)
  }
  override _stop() {
    this.ins._remove(this.out)
    this.out = OFF
  }
}
