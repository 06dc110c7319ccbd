import { createInterface } from 'node:readline'
import { CreateError } from './errors.js'

/**
 * Line-at-a-time questions on a terminal. Lines that arrive before a question is asked are kept
 * for it (piped answers), and Ctrl-C or the end of input rejects the pending question with `ABORTED`.
 * @param {NodeJS.ReadableStream & { isTTY?: boolean }} input
 * @param {NodeJS.WritableStream} output
 */
export function createPrompter(input, output) {
  const rl = createInterface({ input, output, terminal: input.isTTY === true })
  const lines = []
  let waiting
  let closed = false
  const aborted = () => new CreateError('ABORTED', 'Cancelled; nothing was written.')

  rl.on('line', (line) => {
    if (!waiting) return void lines.push(line)
    const { resolve } = waiting
    waiting = undefined
    resolve(line)
  })
  rl.on('close', () => {
    closed = true
    waiting?.reject(aborted())
    waiting = undefined
  })
  // In terminal mode readline swallows Ctrl-C unless someone listens.
  rl.on('SIGINT', () => rl.close())

  /** Writes `question` and resolves with the next line, trimmed. */
  function line(question) {
    output.write(question)
    if (lines.length > 0) return Promise.resolve(lines.shift().trim())
    if (closed) return Promise.reject(aborted())
    return new Promise((resolve, reject) => {
      waiting = { resolve: (l) => resolve(l.trim()), reject }
    })
  }

  return {
    /**
     * Asks until `check` accepts the answer (an empty answer takes `fallback`). `check` returns the
     * value to keep, or throws an error whose message is shown before asking again.
     * @template T
     * @param {string} question
     * @param {string} fallback
     * @param {(answer: string) => T} check
     * @returns {Promise<T>}
     */
    async ask(question, fallback, check) {
      for (;;) {
        const answer = (await line(`${question} (${fallback}): `)) || fallback
        try {
          return check(answer)
        } catch (err) {
          output.write(`  ${err.message}\n`)
        }
      }
    },
    close: () => rl.close(),
  }
}
