import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { Stream as xstream, type Stream as XStream } from 'xstream'
import { xs as ours } from 'duetkit'

// An xstream/extra operator, as a user would add one (the package is CommonJS).
const { default: dropRepeats } = createRequire(import.meta.url)('xstream/extra/dropRepeats') as typeof import('xstream/extra/dropRepeats.js')

// duetkit's own streams against xstream itself: each case builds the same graph on both and compares
// what a listener records, step by step, including errors, completion and the asynchronous stop.
type Xs = typeof xstream
type S = XStream<unknown>
type Event = ['next', unknown] | ['error', string] | ['complete']

function record<T>(s: XStream<T>): Event[] {
  const log: Event[] = []
  s.addListener({ next: (v) => log.push(['next', v]), error: (e) => log.push(['error', String(e?.message ?? e)]), complete: () => log.push(['complete']) })
  return log
}

/** A stream driven by hand, and the number of times its producer was started and stopped. */
function source(xs: Xs) {
  const counts = { starts: 0, stops: 0 }
  let sink: { next(v: unknown): void; error(e: unknown): void; complete(): void } | undefined
  const stream = xs.create<unknown>({
    start: (l) => {
      counts.starts++
      sink = l
    },
    stop: () => {
      counts.stops++
      sink = undefined
    },
  })
  return { stream, counts, next: (v: unknown) => sink?.next(v), error: (e: unknown) => sink?.error(e), complete: () => sink?.complete() }
}

const tick = () => new Promise((r) => setTimeout(r, 5))

/** Runs `scenario` on xstream and on duetkit's streams; both must record the same. */
async function same<R>(scenario: (xs: Xs) => Promise<R> | R): Promise<R> {
  const theirs = await scenario(xstream)
  // duetkit's `xs` has xstream's type: no cast needed.
  const mine = await scenario(ours)
  expect(mine).toEqual(theirs)
  return mine
}

describe("duetkit's streams behave as xstream's", () => {
  it('map, mapTo, filter (fused), take, drop, last, debug', async () => {
    const got = await same((xs) => {
      const s = source(xs)
      const logs = [
        record(s.stream.map((x) => (x as number) * 2)),
        record(s.stream.mapTo('hi')),
        record(s.stream.filter((x) => (x as number) > 1).filter((x) => (x as number) < 4)),
        record(s.stream.take(2)),
        record(s.stream.drop(2)),
        record(s.stream.last()),
        record(s.stream.debug(() => {})),
      ]
      for (const v of [1, 2, 3, 4]) s.next(v)
      s.complete()
      return { logs, counts: s.counts }
    })
    expect(got.logs[0]).toEqual([['next', 2], ['next', 4], ['next', 6], ['next', 8], ['complete']])
  })

  it('a throwing map or filter function errors the stream and stops it', () =>
    same((xs) => {
      const s = source(xs)
      const a = record(
        s.stream.map((x) => {
          if (x === 2) throw new Error('boom')
          return x
        }),
      )
      for (const v of [1, 2, 3]) s.next(v)
      return { a, counts: s.counts }
    }))

  it('startWith, fold and remember hand the latest value to a late listener', async () => {
    await same((xs) => {
      const s = source(xs)
      const folded = s.stream.fold((acc, x) => (acc as number) + (x as number), 0)
      const first = record(folded)
      const started = s.stream.startWith('first')
      const early = record(started)
      s.next(1)
      s.next(2)
      const late = record(folded)
      const remembered = s.stream.remember()
      const r1 = record(remembered)
      s.next(3)
      const r2 = record(remembered)
      return { first, early, late, r1, r2 }
    })
  })

  it('stops the producer one macrotask after the last listener leaves, and not if one comes back', () =>
    same(async (xs) => {
      const s = source(xs)
      const listener = { next: () => {} }
      s.stream.addListener(listener)
      s.stream.removeListener(listener)
      s.stream.addListener(listener)
      await tick()
      const kept = { ...s.counts }
      s.stream.removeListener(listener)
      await tick()
      return { kept, after: s.counts }
    }))

  it('a MemoryStream forgets its value once stopped', () =>
    same(async (xs) => {
      const s = source(xs)
      const m = s.stream.remember()
      const l = { next: () => {} }
      m.addListener(l)
      s.next('a')
      m.removeListener(l)
      const during = record(m)
      await tick()
      m.removeListener(during as never)
      return { during }
    }))

  it('merge and combine, from both sides', () =>
    same((xs) => {
      const a = source(xs)
      const b = source(xs)
      const merged = record(xs.merge(a.stream, b.stream))
      const combined = record(xs.combine(a.stream, b.stream))
      a.next(1)
      b.next('x')
      a.next(2)
      a.complete()
      b.next('y')
      b.complete()
      return { merged, combined, empty: record(xs.combine()) }
    }))

  it('flatten follows the latest inner stream; endWhen and replaceError', () =>
    same((xs) => {
      const outer = source(xs)
      const i1 = source(xs)
      const i2 = source(xs)
      const flat = record((outer.stream as XStream<XStream<unknown>>).flatten())
      outer.next(i1.stream)
      i1.next('a')
      outer.next(i2.stream)
      i1.next('lost')
      i2.next('b')
      outer.complete()
      i2.complete()
      const s = source(xs)
      const stop = source(xs)
      const ended = record(s.stream.endWhen(stop.stream))
      s.next(1)
      stop.next('now')
      s.next(2)
      const e = source(xs)
      const replaced = record(e.stream.replaceError(() => xs.of<unknown>('fallback')))
      e.next('ok')
      e.error(new Error('bad'))
      return { flat, ended, replaced, i1: i1.counts }
    }))

  it('of, fromArray, empty, throw, never, fromPromise, from and periodic', () =>
    same(async (xs) => {
      const of = record(xs.of(1, 2))
      const arr = record(xs.fromArray(['a']))
      const empty = record(xs.empty())
      const thrown = record(xs.throw(new Error('no')))
      const never = record(xs.never())
      const promised = record(xs.fromPromise(Promise.resolve(7)))
      const fromAny = record(xs.from([3]))
      const periodic = record(xs.periodic(1).take(3))
      // Waits for what it waits for (the periodic stream's end, which comes after the promise's value), not a fixed time.
      await new Promise<void>((done) => xs.periodic(1).drop(3).take(1).addListener({ complete: done }))
      return { of, arr, empty, thrown, never, promised, fromAny, periodic }
    }))

  it('imitate closes a cycle, and refuses a MemoryStream', () =>
    same((xs) => {
      const proxy = xs.create<number>()
      const s = source(xs)
      const out = record(xs.merge(s.stream, proxy).take(4))
      proxy.imitate(s.stream.map((x) => (x as number) * 10) as XStream<number>)
      s.next(1)
      let refused = ''
      try {
        xs.create<number>().imitate(xs.of(1).remember())
      } catch {
        refused = 'refused'
      }
      return { out, refused }
    }))

  it('shamefullySend*, setDebugListener, subscribe, and an error nobody listens to is dropped as in xstream', () =>
    same((xs) => {
      const s = xs.create<number>()
      const seen: unknown[] = []
      s.setDebugListener({ next: (v) => seen.push(['debug', v]) })
      const sub = s.subscribe({ next: (v) => seen.push(['sub', v]) })
      s.shamefullySendNext(1)
      sub.unsubscribe()
      s.shamefullySendNext(2)
      s.setDebugListener(null)
      let thrown = ''
      try {
        xs.create().shamefullySendError(new Error('nobody listens'))
      } catch (e) {
        thrown = (e as Error).message
      }
      return { seen, thrown }
    }))

  it('mixes with xstream: merge either way, and an xstream/extra operator through compose', () => {
    const mine = source(ours)
    const theirs = source(xstream)
    const mixed = record(xstream.merge(mine.stream, theirs.stream))
    const mixed2 = record(ours.merge(theirs.stream, mine.stream))
    const deduped = record(mine.stream.compose(dropRepeats()))
    mine.next(1)
    mine.next(1)
    theirs.next(2)
    mine.next(3)
    expect(mixed).toEqual([
      ['next', 1],
      ['next', 1],
      ['next', 2],
      ['next', 3],
    ])
    expect(mixed2).toEqual(mixed)
    expect(deduped).toEqual([
      ['next', 1],
      ['next', 3],
    ])
    expect(typeof (mine.stream as unknown as Record<symbol, () => unknown>)[Symbol.for('https://github.com/benlesh/symbol-observable')]).toBe('function')
  })

  // Where duetkit's streams part from xstream on purpose (found by stream-differential.test.ts); each
  // case runs on both, so the difference it names is shown to exist.
  it('an input that errors as it starts stops merge, combine and endWhen without listening to the rest (xstream keeps them listened to for good)', async () => {
    const builds = [
      (xs: Xs, s: S) => xs.merge(xs.throw(new Error('early')), s),
      (xs: Xs, s: S) => xs.combine(xs.throw(new Error('early')), s),
      (xs: Xs, s: S) => s.endWhen(xs.throw(new Error('early'))),
    ]
    for (const build of builds) {
      const mine = source(ours)
      const theirs = source(xstream)
      const logs = [record(build(ours, mine.stream)), record(build(xstream, theirs.stream))]
      await tick()
      expect(logs).toEqual([[['error', 'early']], [['error', 'early']]])
      expect(mine.counts).toEqual({ starts: 0, stops: 0 })
      expect(theirs.counts).toEqual({ starts: 1, stops: 0 })
    }
  })

  it('an end stream that emits as it starts ends endWhen without listening to the input (xstream keeps it listened to for good)', async () => {
    const mine = source(ours)
    const theirs = source(xstream)
    const logs = [record(mine.stream.endWhen(ours.of('now'))), record(theirs.stream.endWhen(xstream.of('now')))]
    await tick()
    expect(logs).toEqual([[['complete']], [['complete']]])
    expect(mine.counts).toEqual({ starts: 0, stops: 0 })
    expect(theirs.counts).toEqual({ starts: 1, stops: 0 })
  })

  it('a combine that heard one error through two inputs still tells a later listener of the next error (xstream loses it)', async () => {
    const logs = []
    for (const xs of [ours, xstream]) {
      const s = source(xs)
      const both = xs.combine(s.stream, s.stream)
      const first = record(both)
      s.error(new Error('first'))
      await tick()
      const later = record(both)
      s.next(1)
      s.error(new Error('second'))
      logs.push({ first, later })
    }
    expect(logs[0]).toEqual({
      first: [['error', 'first']],
      later: [
        ['next', [1, 1]],
        ['error', 'second'],
      ],
    })
    expect(logs[1]).toEqual({ first: [['error', 'first']], later: [['next', [1, 1]]] })
  })

  it('create refuses a producer without start and stop, as xstream does', () => {
    expect(() => ours.create({ start: () => {} } as never)).toThrow('producer requires both start and stop functions')
  })
})
