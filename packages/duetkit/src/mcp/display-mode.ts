import { DuetError } from '../protocol/errors.js'
import type { McpFeature } from './feature.js'
import type { DisplayMode } from './host-types.js'
import { invalid, request } from './sinks.js'

const MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip']

/** Whether `modes` is a list of display modes (the `availableDisplayModes` option). */
export const isDisplayModes = (modes: unknown): modes is DisplayMode[] => Array.isArray(modes) && modes.every((m) => MODES.includes(m))

/**
 * Display modes: the `{ displayMode }` sink (`ui/request-display-mode`, its `ok` action gets the mode the
 * host chose) and, with `modes`, the modes the view supports announced in the handshake. Part of
 * `makeMcpAppDriver`; pass it to `makeLeanMcpAppDriver` for a view that changes its display mode.
 *
 * @example makeLeanMcpAppDriver({ features: [withDisplayModes(['inline', 'fullscreen'])] })
 */
export function withDisplayModes(modes?: DisplayMode[]): McpFeature {
  if (modes !== undefined && !isDisplayModes(modes))
    throw new DuetError('INVALID_OPTION', "withDisplayModes: modes must be an array of 'inline', 'fullscreen', 'pip'", { option: 'availableDisplayModes' })
  return () => ({
    ...(modes ? { appCapabilities: { availableDisplayModes: modes } } : {}),
    sinks: {
      displayMode: (mode) => {
        if (!MODES.includes(mode as DisplayMode)) throw invalid(`displayMode must be 'inline', 'fullscreen' or 'pip', not ${JSON.stringify(mode)}`)
        return request('ui/request-display-mode', { mode }, { answer: (r) => ({ mode: r.mode }) })
      },
    },
  })
}
