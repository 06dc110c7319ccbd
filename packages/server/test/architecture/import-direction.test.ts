import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { fileViolations, importViolations, type RoomRules } from '../../../../test/support/import-rooms.js'

// The rooms of @duetkit/server/src and the rooms each may import; the README's Architecture section
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
