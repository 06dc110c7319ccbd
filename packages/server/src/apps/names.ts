import { DuetError } from 'duetkit/protocol'

// Names and keys are only ever column values, never paths; the patterns still exclude separators
// and dots so that a name means the same thing in every store a later version might use.
const APP_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/
const DATA_KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** Checks a saved-app or app-data namespace name: 1-64 of a-z, 0-9, `_`, `-`, starting with a letter or digit. */
export function checkAppName(value: unknown, field = 'name'): string {
  if (typeof value === 'string' && APP_NAME.test(value)) return value
  throw new DuetError(
    'INVALID_NAME',
    `${field} '${shown(value)}' is not a valid app name: use 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit (e.g. 'declaration-reader').`,
    { field, value },
  )
}

/** Checks an app-data key: 1-128 of letters, digits, `_`, `.`, `:`, `-`, starting with a letter or digit, no `..`. */
export function checkDataKey(value: unknown, field = 'key'): string {
  if (typeof value === 'string' && DATA_KEY.test(value) && !value.includes('..')) return value
  throw new DuetError(
    'INVALID_NAME',
    `${field} '${shown(value)}' is not a valid data key: use 1-128 letters, digits, '_', '.', ':' or '-', starting with a letter or digit, no '/' or '..' (e.g. 'pages' or 'chapter-1').`,
    { field, value },
  )
}
