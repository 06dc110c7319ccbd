import { DuetError } from '../protocol/errors.js'

/**
 * The parts of duetkit a view can leave out of its build with `duet({ omit })`, each with the Vite
 * define that turns it off (runtime/omitted.ts reads them). A view that uses an omitted part anyway
 * gets an `UNSUPPORTED` error naming it.
 */
export const OMITTABLE = {
  /** The `DOM` source: a view that reads no clicks, inputs or other DOM events. */
  'dom-events': '__DUET_OMIT_DOM_EVENTS__',
  /** What a model sends to the MCP driver (`callTool`, `message`, `updateModelContext`, `openLink`, features' sinks). */
  'mcp-sinks': '__DUET_OMIT_MCP_SINKS__',
  /** The MCP driver applying the host's theme, style variables, fonts and safe-area insets to the document. */
  'host-theme': '__DUET_OMIT_HOST_THEME__',
  /** `<svg>` in JSX. */
  svg: '__DUET_OMIT_SVG__',
  /** The `hook` prop (snabbdom lifecycle hooks: focus an element, measure it). */
  hooks: '__DUET_OMIT_HOOKS__',
} as const

/** A part `duet({ omit })` can leave out. */
export type OmittablePart = keyof typeof OMITTABLE

/**
 * The Vite `define` entries for `parts` left out: every flag is defined, `true` for a part left out and
 * `false` for the rest, so the minifier also drops the checks and errors of the parts that are in.
 * Throws `INVALID_OPTION` naming `omit` for anything but an array of known parts.
 */
export function omitDefines(parts: unknown = []): Record<string, string> {
  const known = Object.keys(OMITTABLE)
  if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'string' && Object.hasOwn(OMITTABLE, p)))
    throw new DuetError('INVALID_OPTION', `duet: option omit must be an array of ${known.map((k) => `'${k}'`).join(', ')}; got ${JSON.stringify(parts)}`, {
      option: 'omit',
    })
  return Object.fromEntries(Object.entries(OMITTABLE).map(([part, flag]) => [flag, String(parts.includes(part))]))
}
