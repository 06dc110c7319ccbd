import { isObject } from './json-rpc.js'

const FONTS_ID = 'duet-host-fonts'
const INSETS = ['top', 'right', 'bottom', 'left'] as const

/**
 * Applies a host context to the document so the view matches the conversation around it:
 * `theme` as `data-theme` and `color-scheme`, `styles.variables` as CSS custom properties on
 * `<html>`, `styles.css.fonts` as one `<style>` element, and `safeAreaInsets` as
 * `--safe-area-inset-{top,right,bottom,left}`. Fields the host did not send are left alone, so
 * the view's own fallbacks stay in force.
 */
export function applyHostContext(context: Record<string, unknown>, doc: Document = document): void {
  const root = doc.documentElement
  if (context.theme === 'light' || context.theme === 'dark') {
    root.setAttribute('data-theme', context.theme)
    root.style.colorScheme = context.theme
  }
  const styles = isObject(context.styles) ? context.styles : undefined
  if (styles && isObject(styles.variables)) {
    for (const [name, value] of Object.entries(styles.variables)) {
      // Only custom properties: a host must not restyle arbitrary properties through this map.
      if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value)
    }
  }
  const fonts = styles && isObject(styles.css) ? styles.css.fonts : undefined
  if (typeof fonts === 'string') {
    let style = doc.getElementById(FONTS_ID)
    if (!style) {
      style = doc.createElement('style')
      style.id = FONTS_ID
      doc.head.appendChild(style)
    }
    if (style.textContent !== fonts) style.textContent = fonts
  }
  if (isObject(context.safeAreaInsets)) {
    for (const side of INSETS) {
      const px = context.safeAreaInsets[side]
      if (Number.isFinite(px)) root.style.setProperty(`--safe-area-inset-${side}`, `${px}px`)
    }
  }
}
