import { describe, expect, it } from 'vitest'
import { hostStyleVariables } from '../../src/dev/host-styles.js'
import { HOST_PRESETS, presetById } from '../../src/dev/presets.js'

describe('host presets', () => {
  it('has the four hosts with distinct ids', () => {
    expect(HOST_PRESETS.map((p) => p.id)).toEqual(['full', 'claude-desktop', 'chatgpt', 'vscode'])
  })

  it('gives the full host every capability a view can ask for', () => {
    const caps = presetById('full').capabilities
    for (const key of ['openLinks', 'downloadFile', 'serverTools', 'serverResources', 'logging', 'updateModelContext', 'message'])
      expect(caps).toHaveProperty(key)
    expect(presetById('full').availableDisplayModes).toEqual(['inline', 'fullscreen', 'pip'])
  })

  it('lets every other preset lack something, so degradation can be checked', () => {
    const all = Object.keys(presetById('full').capabilities)
    for (const p of HOST_PRESETS.filter((x) => x.id !== 'full')) {
      const fewerCaps = all.some((k) => !(k in p.capabilities))
      const fewerModes = p.availableDisplayModes.length < presetById('full').availableDisplayModes.length
      expect(fewerCaps || fewerModes).toBe(true)
      expect(p.availableDisplayModes).toContain('inline')
      expect(p.capabilities).toHaveProperty('serverTools')
    }
    expect(presetById('vscode').capabilities).not.toHaveProperty('updateModelContext')
    expect(presetById('chatgpt').capabilities).not.toHaveProperty('downloadFile')
    expect(presetById('claude-desktop').availableDisplayModes).not.toContain('pip')
  })

  it('names the known ids when asked for an unknown one', () => {
    expect(() => presetById('netscape')).toThrow(/unknown host preset 'netscape'; known: full, claude-desktop, chatgpt, vscode/)
  })
})

describe('host style variables', () => {
  const vars = hostStyleVariables()
  it('has all 76 standard keys', () => {
    const groups = ['background', 'text', 'border']
    const shades = ['primary', 'secondary', 'tertiary', 'inverse', 'ghost', 'info', 'danger', 'success', 'warning', 'disabled']
    const expected = [
      ...groups.flatMap((g) => shades.map((s) => `--color-${g}-${s}`)),
      ...['primary', 'secondary', 'inverse', 'info', 'danger', 'success', 'warning'].map((s) => `--color-ring-${s}`),
      '--font-sans',
      '--font-mono',
      ...['normal', 'medium', 'semibold', 'bold'].map((w) => `--font-weight-${w}`),
      ...['xs', 'sm', 'md', 'lg'].flatMap((s) => [`--font-text-${s}-size`, `--font-text-${s}-line-height`]),
      ...['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'].flatMap((s) => [`--font-heading-${s}-size`, `--font-heading-${s}-line-height`]),
      ...['xs', 'sm', 'md', 'lg', 'xl', 'full'].map((s) => `--border-radius-${s}`),
      '--border-width-regular',
      ...['hairline', 'sm', 'md', 'lg'].map((s) => `--shadow-${s}`),
    ]
    expect(expected).toHaveLength(76)
    expect(Object.keys(vars).sort()).toEqual(expected.sort())
  })

  it('gives colours a light and a dark value', () => {
    for (const [k, v] of Object.entries(vars)) if (k.startsWith('--color-')) expect(v).toMatch(/^light-dark\(.+, .+\)$/)
  })
})
