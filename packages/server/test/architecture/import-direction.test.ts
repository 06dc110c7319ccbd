import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { fileViolations, importViolations, moduleSpecifiers, packageOf, type RoomRules } from '../../../../test/support/import-rooms.js'

// The rooms of @duetkit/server/src and the rooms each may import; docs/architecture.md
// draws the same order: server (the core) ← channel ← apps ← dev ← cli, and src/index.ts composes.
// The core knows no channel and no agent app: apps/agent-apps-server.ts wires them to it.
const ROOMS: RoomRules['rooms'] = {
  server: [],
  channel: ['server'],
  apps: ['channel', 'server'],
  dev: ['apps', 'channel', 'server'],
  // check drives the dev host's sandbox and page; channel only for its optional-peer helper.
  check: ['dev', 'channel', 'server'],
  cli: ['check', 'dev', 'apps', 'channel', 'server'],
  '.': [],
}

// What in src/ may use duetkit's view side: the pages bundled for the browser (the display shell,
// the duet dev page), and compile-component.ts, which reads the view modules' export names to check
// what an agent's component imports. The rest takes only NODE_SIDE_ENTRIES.
const VIEW_SIDE_USERS = ['apps/shell/', 'dev/page/', 'apps/compile-component.ts']
const NODE_SIDE_ENTRIES = ['duetkit/protocol', 'duetkit']

// The heavy packages (a native addon, a bundler, a browser driver, a client) and the one file or room that
// may name each. None is in the core's dependencies: each is an optional peer the room loads lazily, so
// `@duetkit/server` (the core) installs and loads none of them.
const HEAVY: Record<string, readonly string[]> = {
  'better-sqlite3': ['channel/sqlite-driver.ts'],
  'node:sqlite': ['channel/sqlite-driver.ts'],
  redis: ['channel/redis-connection.ts'],
  esbuild: ['apps/esbuild-peer.ts'],
  'playwright-core': ['check/'],
}

// Each entry module of package.json's exports and the one room it re-exports.
const ENTRIES: Record<string, string> = { 'index.ts': 'server', 'channels.ts': 'channel', 'apps.ts': 'apps', 'dev.ts': 'dev', 'check.ts': 'check' }

const packageDir = fileURLToPath(new URL('../../', import.meta.url))
const duetkitExports = Object.keys(
  (JSON.parse(readFileSync(join(packageDir, '../duetkit/package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports,
).filter((e) => e !== './package.json')

const rules: RoomRules = {
  packageDir,
  rooms: ROOMS,
  // duetkit is a dependency like any other: only what its package.json exports, so the server
  // works the same against the published package as in this checkout. Code that runs in Node takes
  // what both sides share from duetkit/protocol, never from the view side (VIEW_SIDE_USERS aside).
  checkPackage(specifier, _room, file) {
    const heavy = HEAVY[specifier] ?? HEAVY[packageOf(specifier)]
    if (heavy) return heavy.some((path) => file.startsWith(path)) ? undefined : `only ${heavy.join(', ')} may load ${packageOf(specifier)} (an optional peer)`
    if (specifier !== 'duetkit' && !specifier.startsWith('duetkit/')) return undefined
    const entry = specifier === 'duetkit' ? '.' : `./${specifier.slice('duetkit/'.length)}`
    if (!duetkitExports.includes(entry)) return `not an entry point of duetkit (${duetkitExports.join(', ')})`
    const viewSide = VIEW_SIDE_USERS.some((path) => file.startsWith(path))
    return viewSide || NODE_SIDE_ENTRIES.includes(specifier) ? undefined : `Node-side code imports only ${NODE_SIDE_ENTRIES.join(' and ')} from duetkit`
  },
}

describe('@duetkit/server/src imports one way', () => {
  it('has no import against the room order and reaches duetkit only through its entry points, the view side only from browser pages', () => {
    expect(importViolations(rules)).toEqual([])
  })

  it('gives each entry point one room: the core entry (index.ts) reaches only server/', () => {
    for (const [entry, room] of Object.entries(ENTRIES)) {
      const text = readFileSync(join(packageDir, 'src', entry), 'utf8')
      const reached = moduleSpecifiers(entry, text).map(({ specifier }) => (specifier.startsWith('./') ? specifier.split('/')[1] : specifier))
      expect({ entry, reached: [...new Set(reached)] }).toEqual({ entry, reached: [room] })
    }
    const exported = Object.keys((JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
    expect(exported).toEqual(['.', './channels', './apps', './dev', './check', './cli', './package.json'])
  })

  it('keeps better-sqlite3, node:sqlite, redis, esbuild and playwright-core out of the core and every file but their own', () => {
    const check = (file: string, text: string) => fileViolations(rules, join(packageDir, 'src', file), text)
    expect(check('server/http.ts', "import Database from 'better-sqlite3'\nconst { DatabaseSync } = require('node:sqlite')")).toEqual([
      "src/server/http.ts:1 imports 'better-sqlite3': only channel/sqlite-driver.ts may load better-sqlite3 (an optional peer)",
      "src/server/http.ts:2 imports 'node:sqlite': only channel/sqlite-driver.ts may load node:sqlite (an optional peer)",
    ])
    expect(check('index.ts', "import { build } from 'esbuild'")).toEqual([
      "src/index.ts:1 imports 'esbuild': only apps/esbuild-peer.ts may load esbuild (an optional peer)",
    ])
    expect(check('apps/app-store.ts', "const { createClient } = await import('redis')")).toEqual([
      "src/apps/app-store.ts:1 imports 'redis': only channel/redis-connection.ts may load redis (an optional peer)",
    ])
    expect(check('dev/sandbox.ts', "import type { Page } from 'playwright-core'")).toEqual([
      "src/dev/sandbox.ts:1 imports 'playwright-core': only check/ may load playwright-core (an optional peer)",
    ])
    expect(check('check/browser.ts', "import type { Page } from 'playwright-core'")).toEqual([])
  })

  it('names the file, the line and the import when the core imports a room above it or duetkit by a path', () => {
    const check = (file: string, text: string) => fileViolations(rules, join(packageDir, 'src', file), text)
    const text = [
      "import { openChannelStore } from '../channel/open-store.js'",
      "import type { AgentAppsServer } from '../apps/agent-apps-server.js'",
      "import { CHANNEL_META_KEY } from 'duetkit/protocol'",
      "import { isChannelId } from 'duetkit/src/protocol/channel.js'",
      "import { run } from '../../../duetkit/src/index.js'",
    ].join('\n')
    expect(check('server/app-server.ts', text)).toEqual([
      "src/server/app-server.ts:1 imports '../channel/open-store.js': server/ may import no other room, not channel/",
      "src/server/app-server.ts:2 imports '../apps/agent-apps-server.js': server/ may import no other room, not apps/",
      `src/server/app-server.ts:4 imports 'duetkit/src/protocol/channel.js': not an entry point of duetkit (${duetkitExports.join(', ')})`,
      "src/server/app-server.ts:5 imports '../../../duetkit/src/index.js': reaches outside src/ by a relative path",
    ])
    expect(check('channel/tools.ts', "import { displayTools } from '../apps/display-tools.js'")).toEqual([
      "src/channel/tools.ts:1 imports '../apps/display-tools.js': channel/ may import server/, not apps/",
    ])
    const driverConstant = "import { CHANNEL_META_KEY } from 'duetkit/mcp'"
    expect(check('apps/display-tools.ts', driverConstant)).toEqual([
      "src/apps/display-tools.ts:1 imports 'duetkit/mcp': Node-side code imports only duetkit/protocol and duetkit from duetkit",
    ])
    expect(check('apps/shell/main.ts', driverConstant)).toEqual([])
  })
})
