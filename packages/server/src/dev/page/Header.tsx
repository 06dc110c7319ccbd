import { component, type Drivers } from 'duetkit'
import { HOST_PRESETS, presetById } from '../presets.js'

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'

/** The host the page plays, as the header's controls set it. */
export interface HostSettings {
  preset: string
  theme: 'light' | 'dark'
  display: DisplayMode
  /** The inline width in px, as typed (the page falls back to 600 when it is not a number). */
  width: string
  locale: string
  /** Send the tool input in partial snapshots before the whole of it. */
  stream: boolean
}

/** What the header tells the page: the settings after a change, and which one changed. */
export type HeaderRequest = { settings: HostSettings; changed: keyof HostSettings }
export type HeaderDrivers = Drivers & { PAGE: { source: undefined; sink: HeaderRequest } }

type Actions = {
  /** From the page: the view asked for a display mode, or full screen was left (Escape, Exit). */
  SET_DISPLAY: DisplayMode
}

const DISPLAYS: [DisplayMode, string][] = [
  ['inline', 'inline'],
  ['fullscreen', 'full screen'],
  ['pip', 'picture-in-picture'],
]

/** The settings after one control changed; a host without the current display mode puts it back to inline. */
export function applySetting<K extends keyof HostSettings>(s: HostSettings, key: K, value: HostSettings[K]): HostSettings {
  const next = { ...s, [key]: value }
  if (key === 'preset' && !presetById(next.preset).availableDisplayModes.includes(next.display)) next.display = 'inline'
  return next
}

const change =
  <K extends keyof HostSettings>(key: K) =>
  (s: HostSettings, value: HostSettings[K]) =>
    applySetting(s, key, value)
const tell =
  <K extends keyof HostSettings>(key: K) =>
  (s: HostSettings, value: HostSettings[K]): HeaderRequest => ({ settings: applySetting(s, key, value), changed: key })

/**
 * The header: the host preset, theme, display mode (only those the preset offers can be picked),
 * inline width, locale, and whether tool input streams. Every change goes to the page, which tells the view.
 */
export const Header = component<HostSettings, Record<string, never>, HeaderDrivers, Actions>()(
  function Header({ state }) {
    const modes = presetById(state.preset).availableDisplayModes
    return (
      <header>
        <h1>duet dev</h1>
        <label>
          Host{' '}
          <select className="preset" data-testid="preset-select">
            {HOST_PRESETS.map((p) => (
              <option value={p.id} selected={p.id === state.preset}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Theme{' '}
          <select className="theme" data-testid="theme-select">
            <option value="light" selected={state.theme === 'light'}>
              light
            </option>
            <option value="dark" selected={state.theme === 'dark'}>
              dark
            </option>
          </select>
        </label>
        <label>
          Display{' '}
          <select className="display" data-testid="display-select">
            {DISPLAYS.map(([value, label]) => (
              <option value={value} selected={state.display === value} disabled={!modes.includes(value)}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Width <input type="number" className="width" min="200" max="1600" step="10" value={state.width} data-testid="width-input" />
        </label>
        <label>
          Locale <input className="locale" size={7} value={state.locale} data-testid="locale-input" />
        </label>
        <label>
          <input type="checkbox" className="stream" checked={state.stream} data-testid="stream-input" />
          stream input
        </label>
      </header>
    )
  },
  {
    initialState: { preset: HOST_PRESETS[0].id, theme: 'light', display: 'inline', width: '600', locale: 'en-US', stream: false },
    intent: ({ DOM }) => ({
      PRESET: DOM.change('.preset').value(),
      THEME: DOM.change('.theme').map((e) => ((e.target as HTMLSelectElement).value === 'dark' ? 'dark' : 'light') as HostSettings['theme']),
      DISPLAY: DOM.change('.display').map((e) => (e.target as HTMLSelectElement).value as DisplayMode),
      WIDTH: DOM.change('.width').value(),
      LOCALE: DOM.change('.locale').value(),
      STREAM: DOM.change('.stream').checked(),
    }),
    model: {
      PRESET: { STATE: change('preset'), PAGE: tell('preset') },
      THEME: { STATE: change('theme'), PAGE: tell('theme') },
      DISPLAY: { STATE: change('display'), PAGE: tell('display') },
      WIDTH: { STATE: change('width'), PAGE: tell('width') },
      LOCALE: { STATE: change('locale'), PAGE: tell('locale') },
      STREAM: { STATE: change('stream'), PAGE: tell('stream') },
      SET_DISPLAY: change('display'),
    },
  },
)
