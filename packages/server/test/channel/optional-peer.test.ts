import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { importWithPeer, missingPackage } from '../../src/channel/optional-peer.js'

const dir = mkdtempSync(join(tmpdir(), 'duet-peer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A module that imports `specifier`, loaded by a real `import()`. */
const moduleImporting = (name: string, specifier: string) => {
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, `import * as peer from '${specifier}'\nexport const loaded = peer\n`)
  const url = pathToFileURL(file).href
  return () => import(/* @vite-ignore */ url)
}

// What Node throws when redis-store.js runs `import { createClient } from 'redis'` in a project
// that installed @duetkit/server without its optional redis peer. The workspace has redis
// installed, so the message is built as Node builds it; the test below gets the same shape from
// a real import of a package that is installed nowhere.
const redisMissing = () =>
  Object.assign(new Error("Cannot find package 'redis' imported from /app/node_modules/@duetkit/server/dist/channel/redis-store.js"), {
    code: 'ERR_MODULE_NOT_FOUND',
  })

describe('loading a module whose optional peer is missing', () => {
  it('fails the redis backend with STORE_UNAVAILABLE saying to run npm install redis', async () => {
    const cause = redisMissing()
    const err = await importWithPeer('redis', 'openChannelStore: the redis backend', () => Promise.reject(cause)).catch((e: unknown) => e)
    expect(err).toMatchObject({
      name: 'DuetError',
      code: 'STORE_UNAVAILABLE',
      message: 'openChannelStore: the redis backend needs the package redis, which is not installed: run `npm install redis` in your project.',
      data: { package: 'redis' },
    })
    expect((err as Error).cause).toBe(cause)
  })

  it('reads the package name from the error a real import of an uninstalled package throws', async () => {
    const err = await importWithPeer('duet-absent-peer', 'the test backend', moduleImporting('absent', 'duet-absent-peer')).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('run `npm install duet-absent-peer`') })
    expect(missingPackage((err as Error).cause)).toBe('duet-absent-peer')
  })

  it('rethrows unchanged when another package is missing, the module itself is missing, or it throws', async () => {
    const other = await importWithPeer('redis', 'x', moduleImporting('other', 'duet-absent-dependency')).catch((e: unknown) => e)
    expect(other).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND', message: expect.stringMatching(/^Cannot find package 'duet-absent-dependency'/) })
    const absentFile = pathToFileURL(join(dir, 'absent-file.mjs')).href
    const gone = await importWithPeer('redis', 'x', () => import(/* @vite-ignore */ absentFile)).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(Error)
    expect(missingPackage(gone)).toBeUndefined()
    const boom = new Error('boom')
    await expect(importWithPeer('redis', 'x', () => Promise.reject(boom))).rejects.toBe(boom)
  })

  it('returns the module when it loads', async () => {
    await expect(importWithPeer('node:path', 'x', () => import('node:path'))).resolves.toHaveProperty('join')
  })
})
