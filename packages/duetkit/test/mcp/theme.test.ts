// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { applyHostContext, makeMcpAppDriver } from 'duetkit/mcp'
import { fakeHost, harness, until } from './fake-host.js'

afterEach(() => {
  document.documentElement.removeAttribute('style')
  document.documentElement.removeAttribute('data-theme')
  document.getElementById('duet-host-fonts')?.remove()
})

describe('applyHostContext', () => {
  it('applies theme, style variables, fonts and safe-area insets', () => {
    applyHostContext({
      theme: 'dark',
      styles: {
        variables: { '--color-background-primary': '#111', '--font-sans': 'Inter, sans-serif', color: 'red', '--unset': undefined },
        css: { fonts: '@font-face { font-family: Inter; }' },
      },
      safeAreaInsets: { top: 10, right: 0, bottom: 20, left: 0 },
    })
    const root = document.documentElement
    expect(root.getAttribute('data-theme')).toBe('dark')
    expect(root.style.colorScheme).toBe('dark')
    expect(root.style.getPropertyValue('--color-background-primary')).toBe('#111')
    expect(root.style.getPropertyValue('--font-sans')).toBe('Inter, sans-serif')
    expect(root.style.getPropertyValue('color')).toBe('') // only custom properties are applied
    expect(root.style.getPropertyValue('--safe-area-inset-bottom')).toBe('20px')
    expect(document.getElementById('duet-host-fonts')?.textContent).toBe('@font-face { font-family: Inter; }')
    applyHostContext({ styles: { css: { fonts: '@font-face { font-family: B; }' } } })
    expect(document.querySelectorAll('#duet-host-fonts')).toHaveLength(1)
  })

  it('ignores an invalid theme and leaves what the host did not send', () => {
    applyHostContext({ theme: 'light' })
    applyHostContext({ theme: 'purple', safeAreaInsets: { top: 'x' } })
    expect(document.documentElement.getAttribute('data-theme')).toBe('light')
    expect(document.documentElement.style.getPropertyValue('--safe-area-inset-top')).toBe('')
  })
})

describe('the driver applies the host context', () => {
  it('on the handshake and on each change, unless theme: false', async () => {
    const fake = fakeHost()
    const h = harness()
    makeMcpAppDriver({ window: Object.assign(fake.win, { document }) as any, host: fake.host, autoResize: false })(h.sink$, h.context)
    await until(() => document.documentElement.getAttribute('data-theme') === 'dark', 'dark theme')
    fake.notify('ui/notifications/host-context-changed', { theme: 'light' })
    await until(() => document.documentElement.getAttribute('data-theme') === 'light', 'light theme')
    h.dispose()

    document.documentElement.removeAttribute('data-theme')
    const fake2 = fakeHost()
    const h2 = harness()
    makeMcpAppDriver({ window: Object.assign(fake2.win, { document }) as any, host: fake2.host, autoResize: false, theme: false })(h2.sink$, h2.context)
    await fake2.waitFor((m) => m.method === 'ui/notifications/initialized')
    // A window, not an event: nothing may set the theme after the handshake with theme: false.
    await new Promise((r) => setTimeout(r, 10))
    expect(document.documentElement.getAttribute('data-theme')).toBe(null)
    h2.dispose()
  })
})
