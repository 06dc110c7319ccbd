// Compiled scripts kept per subject (user), so get_render does not compile again what display_component
// just compiled. An entry is found only by the subject that compiled it: another user who sends the
// same source compiles it again, so no one can tell from a fast answer (a hit) what someone else
// rendered. Bounded per subject and in all, making room within the subject that caused it.
import { createHash } from 'node:crypto'
import { BoundedMap } from '../server/bounded-map.js'

/** The bounds of a {@link CompileCache}. */
export interface CompileCacheLimits {
  /** Scripts kept in all. */
  maxEntries: number
  /** Scripts kept for one subject. */
  maxPerSubject: number
  /** A larger script is not kept (compiling it again is cheap; holding many is not). */
  maxScriptBytes: number
}

export const DEFAULT_COMPILE_CACHE_LIMITS: Readonly<CompileCacheLimits> = Object.freeze({
  maxEntries: 64,
  maxPerSubject: 8,
  maxScriptBytes: 256 * 1024,
})

/** Compiles through a per-subject cache: one compile for repeated and concurrent calls of one subject. */
export class CompileCache {
  readonly #scripts: BoundedMap<string, string>
  // Compiles running now, so two calls of one subject with one source wait for the same compile.
  readonly #running = new Map<string, Promise<string>>()
  readonly #limits: CompileCacheLimits

  constructor(limits: CompileCacheLimits = DEFAULT_COMPILE_CACHE_LIMITS) {
    this.#limits = limits
    this.#scripts = new BoundedMap({ maxEntries: limits.maxEntries, maxPerGroup: limits.maxPerSubject })
  }

  /** The key of a source for a subject: the subject and a digest of the source (the source itself is not kept). */
  static keyOf(subject: string, source: string): string {
    return `${subject}\n${createHash('sha256').update(source).digest('base64url')}`
  }

  /** Scripts kept for `subject`. */
  sizeOf(subject: string): number {
    return this.#scripts.sizeOf(subject)
  }

  /** The script of `source` for `subject`: kept, being compiled for the same subject, or compiled now by `compile`. */
  get(subject: string, source: string, compile: () => Promise<string>): Promise<string> {
    const key = CompileCache.keyOf(subject, source)
    const kept = this.#scripts.get(key)
    if (kept !== undefined) return Promise.resolve(kept)
    const running = this.#running.get(key)
    if (running) return running
    const compiling = compile()
      .then((script) => {
        if (Buffer.byteLength(script, 'utf8') <= this.#limits.maxScriptBytes) this.#scripts.set(key, script, subject)
        return script
      })
      .finally(() => this.#running.delete(key))
    this.#running.set(key, compiling)
    return compiling
  }
}
