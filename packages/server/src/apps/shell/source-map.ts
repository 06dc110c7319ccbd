// Maps positions in a compiled component back to the agent's module, with the inline source map the
// compiler puts in the script (compile-worker.ts). Runs in the display shell, so an error the agent reads
// in the server log names its own line, column and text rather than a place in the compiled script.
import { COMPONENT_SCRIPT_NAME } from './globals.js'

/** A place in the agent's module: 1-based line and column, and that line's text. */
export interface SourcePlace {
  line: number
  column: number
  lineText: string
}

interface Segment {
  column: number
  source: number
  line: number
  sourceColumn: number
}

/** The agent's module in esbuild's source list (`<namespace>:<file>`). */
const AGENT_SOURCE = /^duet-agent:/
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes one `mappings` line of base64 VLQ fields, carrying the running sums across lines in `sums`. */
function decodeLine(text: string, sums: number[]): Segment[] {
  const segments: Segment[] = []
  sums[0] = 0 // the generated column restarts on each line; the other fields run on
  for (const group of text.split(',')) {
    if (group === '') continue
    const fields: number[] = []
    let value = 0
    let shift = 0
    for (const ch of group) {
      const digit = BASE64.indexOf(ch)
      if (digit < 0) return segments
      value += (digit & 31) << shift
      if (digit & 32) shift += 5
      else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
        value = 0
        shift = 0
      }
    }
    for (let i = 0; i < fields.length && i < 4; i++) sums[i] += fields[i]
    if (fields.length >= 4) segments.push({ column: sums[0], source: sums[1], line: sums[2], sourceColumn: sums[3] })
  }
  return segments
}

/** Finds the agent's place for 1-based positions in a compiled component, or undefined outside the agent's code. */
export function sourceMapper(script: string): (line: number, column: number) => SourcePlace | undefined {
  const match = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/.exec(script)
  if (!match) return () => undefined
  let map: { sources?: string[]; sourcesContent?: string[]; mappings?: string }
  try {
    map = JSON.parse(atob(match[1]))
  } catch {
    return () => undefined
  }
  const lines = (map.mappings ?? '').split(';')
  const decoded = new Map<number, Segment[]>()
  const sums = [0, 0, 0, 0]
  let upTo = -1
  const segmentsOf = (index: number): Segment[] => {
    // Sums run over every earlier line, so lines are decoded in order, once.
    while (upTo < index && upTo + 1 < lines.length) {
      upTo++
      decoded.set(upTo, decodeLine(lines[upTo], sums))
    }
    return decoded.get(index) ?? []
  }
  const texts = (map.sourcesContent ?? []).map((content) => content.split('\n'))
  return (line, column) => {
    const segments = segmentsOf(line - 1)
    let best: Segment | undefined
    for (const s of segments) if (s.column <= column - 1) best = s
    if (!best || !AGENT_SOURCE.test(map.sources?.[best.source] ?? '')) return undefined
    return { line: best.line + 1, column: best.sourceColumn + 1, lineText: texts[best.source]?.[best.line] ?? '' }
  }
}

const FRAME = new RegExp(`${COMPONENT_SCRIPT_NAME.replace('.', '\\.')}:(\\d+):(\\d+)`, 'g')

/**
 * A stack with each frame in the compiled component rewritten to `component.jsx:line:column`, and the first
 * such place (where the agent's code threw), if any.
 */
export function mapStack(stack: string, map: (line: number, column: number) => SourcePlace | undefined): { stack: string; at?: SourcePlace } {
  let at: SourcePlace | undefined
  const mapped = stack.replace(FRAME, (whole, line: string, column: string) => {
    const place = map(Number(line), Number(column))
    if (!place) return whole
    at ??= place
    return `component.jsx:${place.line}:${place.column}`
  })
  return { stack: mapped, ...(at && { at }) }
}
