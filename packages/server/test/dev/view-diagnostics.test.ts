import { describe, expect, it } from 'vitest'
import {
  CAPTURE_SCRIPT,
  diagnosticLabel,
  insertAtTop,
  MAX_DIAGNOSTIC_TEXT,
  parseViewDiagnostic,
  VIEW_DIAGNOSTIC,
  withCaptureScript,
} from '../../src/dev/view-diagnostics.js'

describe('view diagnostics', () => {
  it('puts the capture script first in the head, after the doctype, never before it', () => {
    const tag = '<script>X</script>'
    expect(insertAtTop('<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body></body></html>', tag)).toBe(
      '<!doctype html><html lang="en"><head><script>X</script><meta charset="utf-8"></head><body></body></html>',
    )
    // <header> is not <head>; without a head the script goes after <html>.
    expect(insertAtTop('<!DOCTYPE html><html><body><header>h</header></body></html>', tag)).toBe(
      '<!DOCTYPE html><html><script>X</script><body><header>h</header></body></html>',
    )
    expect(insertAtTop('<!doctype html><p>bare</p>', tag)).toBe('<!doctype html><script>X</script><p>bare</p>')
    expect(insertAtTop('<p>fragment</p>', tag)).toBe('<script>X</script><p>fragment</p>')
    expect(withCaptureScript('<head></head>')).toBe(`<head><script>${CAPTURE_SCRIPT}</script></head>`)
  })

  it('the capture script cannot end its own script element early', () => {
    expect(CAPTURE_SCRIPT.toLowerCase()).not.toContain('</script')
  })

  it('accepts only well-formed diagnostics, clipping long text', () => {
    const ok = parseViewDiagnostic({ type: VIEW_DIAGNOSTIC, level: 'warning', kind: 'console', text: 'hi', extra: 1 })
    expect(ok).toEqual({ type: VIEW_DIAGNOSTIC, level: 'warning', kind: 'console', text: 'hi' })
    expect(parseViewDiagnostic({ type: VIEW_DIAGNOSTIC, level: 'fatal', kind: 'csp', text: 'x' })?.level).toBe('error')
    expect(parseViewDiagnostic({ type: VIEW_DIAGNOSTIC, kind: 'console', text: 'x'.repeat(5000) })?.text).toHaveLength(MAX_DIAGNOSTIC_TEXT + 1)
    for (const bad of [
      null,
      'text',
      { jsonrpc: '2.0', method: 'x' },
      { type: VIEW_DIAGNOSTIC, kind: 'nope', text: 'x' },
      { type: VIEW_DIAGNOSTIC, kind: 'csp', text: 3 },
    ]) {
      expect(parseViewDiagnostic(bad)).toBeUndefined()
    }
  })

  it('labels each kind for the Logs panel', () => {
    expect(diagnosticLabel({ type: VIEW_DIAGNOSTIC, level: 'error', kind: 'unhandledrejection', text: '' })).toBe('view: unhandled rejection (error)')
    expect(diagnosticLabel({ type: VIEW_DIAGNOSTIC, level: 'error', kind: 'csp', text: '' })).toBe('view: CSP violation (error)')
  })
})
