import { component, type Drivers } from 'duetkit'
import type { DisplayMode } from './Header.js'

export interface StageState {
  display: DisplayMode
  /** The inline width in px. */
  width: number
  /** The tool whose app is on screen, for the host bar's title. */
  tool: string
  /** An app is mounted (Close app shows only then). */
  hasApp: boolean
  /** The view's `prefersBorder: false` drops the frame's dashed border (there is none without an app). */
  border: boolean
  /** Why the last render failed. */
  error: string
}

/** What the stage asks of the page: leave full screen, or close the app. */
export type StageRequest = { exitFullscreen: true } | { close: true }
export type StageDrivers = Drivers & { PAGE: { source: undefined; sink: StageRequest } }

export const initialStageState: StageState = { display: 'inline', width: 600, tool: '', hasApp: false, border: true, error: '' }

/**
 * Where the app renders: the render error above, the host bar a host shows around a full-screen app
 * (with the way back), the frame box (left empty: the page mounts the app's iframe in `.frame-box`,
 * and the runtime never touches its content), and Close app while an app is shown. The page hands it
 * STAGE with what changed.
 */
export const Stage = component<StageState, Record<string, never>, StageDrivers, { STAGE: Partial<StageState> }>()(
  function Stage({ state }) {
    return (
      <div>
        <div data-testid="stage-error">{state.error ? <div className="error-banner">{state.error}</div> : null}</div>
        <div id="stage" data-testid="stage" className={state.display}>
          <div className="host-bar" data-testid="host-bar">
            <span>{state.tool ? `${state.tool} — full screen` : 'full screen'}</span>
            <button type="button" className="exit-fullscreen" data-testid="exit-fullscreen">
              Exit full screen
            </button>
          </div>
          <div
            className="frame-box"
            style={{ width: state.display === 'inline' ? `${state.width}px` : '', borderStyle: state.border && state.hasApp ? '' : 'none' }}
          />
        </div>
        {state.hasApp ? (
          <button type="button" className="close-app" data-testid="close-app">
            Close app
          </button>
        ) : null}
      </div>
    )
  },
  {
    initialState: initialStageState,
    intent: ({ DOM }) => ({
      EXIT: DOM.click('.exit-fullscreen').mapTo(null),
      CLOSE: DOM.click('.close-app').mapTo(null),
    }),
    model: {
      STAGE: (state, change) => ({ ...state, ...change }),
      EXIT: { PAGE: () => ({ exitFullscreen: true }) },
      CLOSE: { PAGE: () => ({ close: true }) },
    },
  },
)
