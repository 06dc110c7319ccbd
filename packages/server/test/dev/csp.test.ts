import { describe, expect, it } from 'vitest'
import { buildCsp, cspFromQuery, DEFAULT_CSP } from '../../src/dev/csp.js'
import { codedError } from '../../../../test/support/coded-error.js'

describe('buildCsp', () => {
  it('uses the spec default when the resource declares no csp', () => {
    expect(buildCsp(undefined)).toBe(DEFAULT_CSP)
    expect(buildCsp(null)).toBe(DEFAULT_CSP)
    expect(DEFAULT_CSP).toContain("connect-src 'none'")
    expect(DEFAULT_CSP).toContain("default-src 'none'")
  })

  it('adds declared domains to exactly the directives the spec names', () => {
    const csp = buildCsp({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example.com'],
    })
    const directives = Object.fromEntries(
      csp.split('; ').map((d) => {
        const [name, ...rest] = d.split(' ')
        return [name, rest.join(' ')]
      }),
    )
    expect(directives['connect-src']).toBe('https://api.example.com')
    for (const d of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src']) expect(directives[d]).toContain('https://cdn.example.com')
    expect(directives['script-src']).not.toContain('api.example.com')
    expect(directives['frame-src']).toBe('https://www.youtube.com')
    expect(directives['base-uri']).toBe('https://base.example.com')
    expect(directives['object-src']).toBe("'none'")
  })

  it("falls back to 'none' frames and 'self' base-uri when those lists are absent", () => {
    const csp = buildCsp({ connectDomains: ['http://localhost:3001'] })
    expect(csp).toContain("frame-src 'none'")
    expect(csp).toContain("base-uri 'self'")
    expect(csp).toContain('connect-src http://localhost:3001')
  })

  it('rejects values that would inject directives with INVALID_CSP, and says which field', () => {
    expect(() => buildCsp({ connectDomains: ["https://a.com; script-src 'unsafe-eval'"] })).toThrow(codedError('INVALID_CSP', /connectDomains/))
    expect(() => buildCsp({ resourceDomains: ["'unsafe-eval'"] })).toThrow(/resourceDomains/)
    expect(() => buildCsp({ frameDomains: ['https://a.com https://b.com'] })).toThrow(/frameDomains/)
    expect(() => buildCsp({ connectDomains: 'https://a.com' as unknown as string[] })).toThrow(/must be an array/)
    expect(() => buildCsp({ connectDomains: ['javascript:alert(1)'] })).toThrow(/not an origin/)
  })

  it('accepts wildcard subdomains, ports and websocket origins', () => {
    expect(buildCsp({ connectDomains: ['https://*.example.com', 'wss://live.example.com:8443', 'http://127.0.0.1:*'] })).toContain(
      'connect-src https://*.example.com wss://live.example.com:8443 http://127.0.0.1:*',
    )
  })

  it('parses the query form the host page sends and reports bad JSON', () => {
    expect(cspFromQuery(null)).toBe(DEFAULT_CSP)
    expect(cspFromQuery(JSON.stringify({ connectDomains: ['https://x.dev'] }))).toContain('connect-src https://x.dev')
    expect(() => cspFromQuery('{nope')).toThrow(/not JSON/)
  })
})
