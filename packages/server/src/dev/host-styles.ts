/**
 * The complete set of standard MCP Apps style variables (76 keys), as `light-dark()` values so
 * one set serves both themes: the view's `color-scheme` (set from `theme`) picks the half.
 */
export function hostStyleVariables(): Record<string, string> {
  const vars: Record<string, string> = {}
  const ld = (light: string, dark: string) => `light-dark(${light}, ${dark})`
  const palette: Record<string, Record<string, [string, string]>> = {
    background: {
      primary: ['#ffffff', '#1b1b1f'],
      secondary: ['#f5f5f7', '#232328'],
      tertiary: ['#ebebef', '#2c2c33'],
      inverse: ['#1b1b1f', '#ffffff'],
      ghost: ['transparent', 'transparent'],
      info: ['#e8f1fe', '#12284a'],
      danger: ['#fdecec', '#4a1414'],
      success: ['#e9f7ee', '#123a22'],
      warning: ['#fff6e0', '#463208'],
      disabled: ['#f0f0f2', '#2a2a2f'],
    },
    text: {
      primary: ['#1b1b1f', '#f2f2f5'],
      secondary: ['#4a4a55', '#c4c4cc'],
      tertiary: ['#6e6e7a', '#9a9aa5'],
      inverse: ['#ffffff', '#1b1b1f'],
      ghost: ['#8a8a95', '#7a7a85'],
      info: ['#1a5fd0', '#8ab8ff'],
      danger: ['#c0282d', '#ff8a8a'],
      success: ['#1e7a43', '#7fdca3'],
      warning: ['#8a5a00', '#ffcf66'],
      disabled: ['#a0a0aa', '#5a5a64'],
    },
    border: {
      primary: ['#d4d4da', '#3a3a42'],
      secondary: ['#e2e2e7', '#303037'],
      tertiary: ['#ececf0', '#28282e'],
      inverse: ['#1b1b1f', '#f2f2f5'],
      ghost: ['transparent', 'transparent'],
      info: ['#9cc1f7', '#2c5aa0'],
      danger: ['#f0a3a5', '#8a2a2d'],
      success: ['#9fd8b4', '#2a6b45'],
      warning: ['#f2cf85', '#8a6410'],
      disabled: ['#e6e6ea', '#2e2e35'],
    },
    ring: {
      primary: ['#3b82f6', '#60a5fa'],
      secondary: ['#9ca3af', '#6b7280'],
      inverse: ['#ffffff', '#1b1b1f'],
      info: ['#3b82f6', '#60a5fa'],
      danger: ['#ef4444', '#f87171'],
      success: ['#22c55e', '#4ade80'],
      warning: ['#f59e0b', '#fbbf24'],
    },
  }
  for (const [group, shades] of Object.entries(palette)) {
    for (const [name, [light, dark]] of Object.entries(shades)) vars[`--color-${group}-${name}`] = ld(light, dark)
  }
  vars['--font-sans'] = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
  vars['--font-mono'] = 'ui-monospace, "SF Mono", Menlo, Consolas, monospace'
  Object.assign(vars, { '--font-weight-normal': '400', '--font-weight-medium': '500', '--font-weight-semibold': '600', '--font-weight-bold': '700' })
  const text: Record<string, [string, string]> = { xs: ['12px', '16px'], sm: ['14px', '20px'], md: ['16px', '24px'], lg: ['18px', '28px'] }
  for (const [k, [size, lh]] of Object.entries(text)) {
    vars[`--font-text-${k}-size`] = size
    vars[`--font-text-${k}-line-height`] = lh
  }
  const heading: Record<string, [string, string]> = {
    xs: ['14px', '20px'],
    sm: ['16px', '24px'],
    md: ['18px', '28px'],
    lg: ['20px', '28px'],
    xl: ['24px', '32px'],
    '2xl': ['30px', '36px'],
    '3xl': ['36px', '40px'],
  }
  for (const [k, [size, lh]] of Object.entries(heading)) {
    vars[`--font-heading-${k}-size`] = size
    vars[`--font-heading-${k}-line-height`] = lh
  }
  Object.assign(vars, {
    '--border-radius-xs': '2px',
    '--border-radius-sm': '4px',
    '--border-radius-md': '8px',
    '--border-radius-lg': '12px',
    '--border-radius-xl': '16px',
    '--border-radius-full': '9999px',
  })
  vars['--border-width-regular'] = '1px'
  Object.assign(vars, {
    '--shadow-hairline': '0 0 0 1px rgb(0 0 0 / 0.08)',
    '--shadow-sm': '0 1px 2px rgb(0 0 0 / 0.12)',
    '--shadow-md': '0 4px 8px rgb(0 0 0 / 0.14)',
    '--shadow-lg': '0 12px 24px rgb(0 0 0 / 0.18)',
  })
  return vars
}
