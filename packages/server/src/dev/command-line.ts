import { DuetError } from 'duetkit/protocol'

/**
 * Splits a `--stdio` command line into program and arguments the way a POSIX shell would quote
 * them (single quotes, double quotes, backslash escapes), without running a shell: no variables,
 * globs, pipes or redirections, so nothing in the string can do more than name one program.
 */
export function splitCommandLine(line: string): { command: string; args: string[] } {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: '"' | "'" | null = null
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quote === "'") {
      if (c === "'") quote = null
      else word += c
      continue
    }
    if (quote === '"') {
      if (c === '"') quote = null
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i]
      else word += c
      continue
    }
    if (c === '"' || c === "'") {
      quote = c
      inWord = true
      continue
    }
    if (c === '\\') {
      if (i + 1 >= line.length) throw new DuetError('USAGE', `--stdio "${line}": the line ends with a lone backslash`)
      word += line[++i]
      inWord = true
      continue
    }
    if (/\s/.test(c)) {
      if (inWord) {
        words.push(word)
        word = ''
        inWord = false
      }
      continue
    }
    word += c
    inWord = true
  }
  if (quote) throw new DuetError('USAGE', `--stdio "${line}": unterminated ${quote} quote`)
  if (inWord) words.push(word)
  if (words.length === 0) throw new DuetError('USAGE', '--stdio needs a command, e.g. --stdio "node server.js --stdio"')
  const [command, ...args] = words
  return { command, args }
}
