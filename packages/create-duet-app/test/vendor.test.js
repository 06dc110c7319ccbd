import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findDuetCheckout, needsBuild } from '../src/vendor.js'

describe('the checkout this scaffolder runs from', () => {
  it('has duetkit, then @duetkit/server, each with the files its build writes, and @duetkit/cli with its bin', () => {
    const checkout = findDuetCheckout()
    expect(checkout?.packages.map((p) => p.name)).toEqual(['duetkit', '@duetkit/server', '@duetkit/cli'])
    const [duetkit, server, cli] = checkout.packages
    expect(cli).toMatchObject({ source: false, built: ['bin/duet.js'] })
    expect(duetkit.dir).toMatch(/packages\/duetkit$/)
    expect(duetkit.built).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/mcp/index.js', 'dist/testing/index.js', 'dist/build/index.js', 'dist/protocol/index.js']),
    )
    expect(server.dir).toMatch(/packages\/server$/)
    // The bin and the browser bundles are built files no export names.
    expect(server.built).toEqual(expect.arrayContaining(['dist/index.js', 'dist/cli/bin.js', 'dist/assets/display-shell.html', 'dist/assets/dev-page.js']))
  })
})

describe('whether a package needs building', () => {
  let dir
  const at = (file, seconds) => utimesSync(join(dir, file), seconds, seconds)
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'duet-vendor-'))
    mkdirSync(join(dir, 'src'))
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'src/index.ts'), '')
    writeFileSync(join(dir, 'dist/index.js'), '')
    at('src/index.ts', 1_000)
    at('dist/index.js', 2_000)
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('does not when every built file is there and newer than the sources and the package it bundles', () => {
    expect(needsBuild({ dir, built: ['dist/index.js'] }, 1_500_000)).toBe(false)
  })

  it('does when a built file is missing', () => {
    expect(needsBuild({ dir, built: ['dist/index.js', 'dist/cli/bin.js'] })).toBe(true)
  })

  it('does when a source changed after the build', () => {
    at('src/index.ts', 3_000)
    expect(needsBuild({ dir, built: ['dist/index.js'] })).toBe(true)
  })

  it('does when the package it bundles was built after it', () => {
    expect(needsBuild({ dir, built: ['dist/index.js'] }, 2_500_000)).toBe(true)
  })
})
