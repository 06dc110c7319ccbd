import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveDataDir } from '../../src/channel/index.js'

const saved = { DUET_DATA_DIR: process.env.DUET_DATA_DIR, XDG_DATA_HOME: process.env.XDG_DATA_HOME }
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

describe('resolveDataDir', () => {
  it('prefers the explicit folder, then $DUET_DATA_DIR, always absolute', () => {
    process.env.DUET_DATA_DIR = '/srv/duet-env'
    expect(resolveDataDir('/tmp/explicit')).toBe('/tmp/explicit')
    expect(resolveDataDir('relative/dir')).toBe(resolve('relative/dir'))
    expect(resolveDataDir()).toBe('/srv/duet-env')
    process.env.DUET_DATA_DIR = '   '
    expect(isAbsolute(resolveDataDir())).toBe(true)
    expect(resolveDataDir()).not.toBe('   ')
  })

  it.runIf(process.platform === 'linux')('falls back to the XDG data folder on Linux, ignoring a relative XDG_DATA_HOME', () => {
    delete process.env.DUET_DATA_DIR
    process.env.XDG_DATA_HOME = '/xdg/data'
    expect(resolveDataDir()).toBe('/xdg/data/duet')
    process.env.XDG_DATA_HOME = 'not/absolute'
    expect(resolveDataDir()).toBe(join(homedir(), '.local', 'share', 'duet'))
    delete process.env.XDG_DATA_HOME
    expect(resolveDataDir()).toBe(join(homedir(), '.local', 'share', 'duet'))
  })
})
