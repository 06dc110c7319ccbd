import { APICallError } from 'ai'

/**
 * A provider's error as the person should read it: the HTTP status and the provider's own message
 * (a wrong key, an unknown model, a rate limit), not a stack.
 */
export function describeProviderError(err: unknown): string {
  if (APICallError.isInstance(err)) {
    const body = typeof err.responseBody === 'string' ? err.responseBody.slice(0, 500) : ''
    const status = err.statusCode === undefined ? '' : `HTTP ${err.statusCode} `
    return `${status}from ${err.url}: ${err.message}${body && !err.message.includes(body) ? ` — ${body}` : ''}`
  }
  if (err instanceof Error) return err.message
  return typeof err === 'string' ? err : JSON.stringify(err)
}
