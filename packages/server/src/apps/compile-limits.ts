import { DuetError } from 'duetkit/protocol'
import { invalidOption } from '../server/errors.js'

/**
 * The limits of one compile. Source past `maxSourceBytes` or nested deeper than `maxNesting` is
 * refused before any compiler sees it; a compile gets `timeoutMs` of wall time, its script may be at
 * most `maxOutputBytes`, and the compiler worker running it (Node and esbuild's service process
 * together, by resident memory) may use at most `maxMemoryMb`: past it the worker is killed.
 */
export interface CompileLimits {
  maxSourceBytes: number
  maxNesting: number
  timeoutMs: number
  maxMemoryMb: number
  maxOutputBytes: number
}

export const DEFAULT_COMPILE_LIMITS: Readonly<CompileLimits> = Object.freeze({
  // A component is a screenful of code; bulky data belongs in put_app_data.
  maxSourceBytes: 1024 * 1024,
  // Real modules nest brackets a few dozen deep; esbuild's recursive parser overflows its stack far deeper.
  maxNesting: 1000,
  timeoutMs: 10_000,
  maxMemoryMb: 256,
  maxOutputBytes: 2 * 1024 * 1024,
})

/** An idle worker (Node and esbuild's service) holds about 60 MB; a limit under this one would kill every compile. */
export const MIN_COMPILE_MEMORY_MB = 96

/** Which limit a `COMPILE_ERROR` hit, in `data.limit`. */
export type CompileLimit = 'size' | 'nesting' | 'time' | 'memory' | 'output' | 'crash'

/** A `COMPILE_ERROR` for a limit hit, with the limit in `data.limit` and the message as its one problem. */
export const limitError = (limit: CompileLimit, message: string, extra: Record<string, unknown> = {}): DuetError =>
  new DuetError('COMPILE_ERROR', message, { limit, ...extra, problems: [{ text: message }] })

/** The defaults with `overrides` applied, each checked (a positive integer, a known name); `where` names the caller. */
export function resolveCompileLimits(where: string, overrides: Partial<CompileLimits> | undefined): CompileLimits {
  const limits = { ...DEFAULT_COMPILE_LIMITS }
  if (overrides === undefined) return limits
  if (typeof overrides !== 'object' || overrides === null) invalidOption(where, 'compileLimits', 'must be an object of limits')
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_COMPILE_LIMITS))
      invalidOption(where, `compileLimits.${name}`, `is not a known limit (known: ${Object.keys(DEFAULT_COMPILE_LIMITS).join(', ')})`)
    if (!Number.isSafeInteger(value) || (value as number) < 1) invalidOption(where, `compileLimits.${name}`, `must be a positive integer, got ${String(value)}`)
    limits[name as keyof CompileLimits] = value as number
  }
  if (limits.maxMemoryMb < MIN_COMPILE_MEMORY_MB)
    invalidOption(
      where,
      'compileLimits.maxMemoryMb',
      `must be at least ${MIN_COMPILE_MEMORY_MB} (an idle compiler worker holds about 60 MB), got ${limits.maxMemoryMb}`,
    )
  return limits
}
