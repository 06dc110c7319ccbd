import { DuetError } from 'duetkit/protocol'
import { utf8Bytes } from './limits.js'

/** One page of an app-data value. `next` is the offset of the following page, absent on the last. */
export interface DataPage {
  value: unknown
  offset: number
  total: number
  next?: number
}

export interface PageRequest {
  offset?: number
  limit?: number
}

export interface PageLimits {
  maxPageItems: number
  maxPageChars: number
  maxPageBytes: number
}

/** Default page sizes when the caller gives no `limit`. */
export const DEFAULT_PAGE_ITEMS = 50
export const DEFAULT_PAGE_CHARS = 20_000

function checkCount(name: 'offset' | 'limit', value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new DuetError('INVALID_ARGUMENT', `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`, { field: name })
  }
  return value
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/**
 * Cuts one page out of a stored value. Arrays page by items and strings by characters (UTF-16
 * code units, JavaScript's `length`, never splitting a surrogate pair); any other JSON value is
 * one item and comes back whole.
 */
export function pageOf(value: unknown, request: PageRequest, limits: PageLimits): DataPage {
  if (Array.isArray(value)) {
    const offset = checkCount('offset', request.offset, 0, value.length) ?? 0
    const limit = checkCount('limit', request.limit, 1, limits.maxPageItems) ?? DEFAULT_PAGE_ITEMS
    const end = Math.min(value.length, offset + limit)
    const items: unknown[] = []
    let bytes = 2
    // A page of big items stops early, so one call's answer stays a size the host will carry.
    for (let i = offset; i < end; i++) {
      const size = utf8Bytes(JSON.stringify(value[i]) ?? 'null') + 1
      if (items.length > 0 && bytes + size > limits.maxPageBytes) break
      items.push(value[i])
      bytes += size
    }
    return withNext({ value: items, offset, total: value.length }, offset + items.length)
  }
  if (typeof value === 'string') {
    const offset = checkCount('offset', request.offset, 0, value.length) ?? 0
    const limit = checkCount('limit', request.limit, 1, limits.maxPageChars) ?? DEFAULT_PAGE_CHARS
    let end = Math.min(value.length, offset + limit)
    if (end < value.length && end > offset + 1 && isHighSurrogate(value.charCodeAt(end - 1))) end -= 1
    return withNext({ value: value.slice(offset, end), offset, total: value.length }, end)
  }
  checkCount('offset', request.offset, 0, 0)
  checkCount('limit', request.limit, 1, Number.MAX_SAFE_INTEGER)
  return { value, offset: 0, total: 1 }
}

function withNext(page: DataPage, end: number): DataPage {
  return end < page.total ? { ...page, next: end } : page
}
