import { reply, wantsReply, type Driver } from 'duetkit'

/**
 * A driver that hands a component's sink values to the page code around it: what the components of a
 * page that is not all duetkit need to ask the rest of the page for something (select a tool, post a
 * token). A value that names `ok`/`error` actions gets the handler's outcome back as that action (a
 * failure as `{ error: message }`, with the error's `code` when it has one: a JSON-RPC or Duet code).
 */
export function makePageDriver<V extends object>(handle: (value: V) => unknown): Driver<undefined, V> {
  return (sink$) => {
    sink$.subscribe({
      next: (value) => {
        Promise.resolve()
          .then(() => handle(value))
          .then(
            (outcome) => wantsReply(value, 'ok') && reply(value, 'ok', outcome),
            (err: Error & { code?: unknown }) => {
              if (wantsReply(value, 'error')) reply(value, 'error', { error: err.message, ...(err.code !== undefined && { code: err.code }) })
              else console.error('[duet dev]', err)
            },
          )
      },
    })
    return undefined
  }
}
