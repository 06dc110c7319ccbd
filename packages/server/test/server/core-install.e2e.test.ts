// What a library user gets from `npm install @duetkit/server`: the packed core installed alone into a fresh
// project pulls in no native addon, no bundler, no browser driver and no Redis client, serves an app tool
// over HTTP to a real MCP client on Node 22 and on Node 24, and loads no `.node` file when imported.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const INSTALL_TIMEOUT = 600_000
const HEAVY = ['better-sqlite3', 'esbuild', 'playwright-core', 'redis']
const packages = fileURLToPath(new URL('../../../', import.meta.url))

// The Node binaries of the supported lines. CI names them; on a developer's machine the test falls back
// to the binaries test/interop and /opt install, and fails (never skips) when neither is there.
const NODES = [
  ['22', 'DUET_NODE22', ['/opt/node22/node_modules/.bin/node']],
  ['24', 'DUET_NODE24', ['/opt/node24/node_modules/.bin/node']],
] as const

function nodeBinary(line: string, variable: string, fallbacks: readonly string[]): string {
  const named = process.env[variable]
  if (named) return named
  const found = process.env.CI ? undefined : fallbacks.find((path) => existsSync(path))
  if (!found)
    throw new Error(
      `${variable} is not set: set it to a Node ${line} binary (in CI .ci/run must export it; locally ${fallbacks.join(' or ')} was not found either).`,
    )
  return found
}

// npm without the variables of an enclosing `npm test`, preferring its cache, so the install works offline.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
env.npm_config_prefer_offline = 'true'

function npm(args: string[], cwd: string) {
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: INSTALL_TIMEOUT })
}

/** Packs a workspace package into `into` and returns the tarball's file name. Its build must be there. */
function pack(folder: string, into: string): string {
  const dir = join(packages, folder)
  if (!existsSync(join(dir, 'dist', 'index.js'))) throw new Error(`${dir}/dist is missing: run \`npm run build\` at the root first.`)
  const packed = npm(['pack', '--json', '--pack-destination', into], dir)
  expect(packed.status, packed.stderr).toBe(0)
  return (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename
}

/** Every installed package name in `npm ls --all --json`'s tree (unmet optional peers have no version). */
interface LsNode {
  version?: string
  dependencies?: Record<string, LsNode>
}
function installed(tree: LsNode, out = new Set<string>()): Set<string> {
  for (const [name, node] of Object.entries(tree.dependencies ?? {})) {
    if (!node.version) continue
    out.add(name)
    installed(node, out)
  }
  return out
}

// The user's server: one app tool with an inline view, served over HTTP on the port PORT names.
const SERVER = `import * as z from 'zod'
import { createAppServer } from '@duetkit/server'
const app = createAppServer({ name: 'core-only', version: '1.0.0' }).appTool(
  'greet',
  { description: 'Greets someone, with a view', inputSchema: { who: z.string() }, view: { html: '<!doctype html><html><body><p id="v">view</p></body></html>' } },
  async ({ who }) => ({ content: [{ type: 'text', text: 'Hello, ' + who + ' from Node ' + process.versions.node }] }),
)
const listening = await app.listen({ http: { port: Number(process.env.PORT), host: '127.0.0.1' } })
process.stderr.write('listening on ' + listening.url + '\\n')
`

// Imports the core and reports the shared objects the process loaded: `.node` ones are native addons.
const PROBE = `await import('@duetkit/server')
const loaded = process.report.getReport().sharedObjects
process.stdout.write(JSON.stringify({ count: loaded.length, addons: loaded.filter((file) => file.endsWith('.node')) }))
`

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duet-core-only-'))
  const duetkit = pack('duetkit', dir)
  const server = pack('server', dir)
  const manifest = {
    name: 'core-only',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { duetkit: `file:${duetkit}`, '@duetkit/server': `file:${server}`, zod: '^4.2.0' },
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(join(dir, 'server.mjs'), SERVER)
  writeFileSync(join(dir, 'probe.mjs'), PROBE)
  // Offline first (the workspace's install filled the cache), the registry only for what is missing.
  let install = npm(['install', '--offline', '--no-audit', '--no-fund'], dir)
  if (install.status !== 0) install = npm(['install', '--no-audit', '--no-fund'], dir)
  expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0)
}, INSTALL_TIMEOUT)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('a project that installs only the packed @duetkit/server core', () => {
  it('has neither better-sqlite3, esbuild, playwright-core nor redis in its node_modules', () => {
    const ls = npm(['ls', '--all', '--json'], dir)
    expect(ls.status, ls.stderr).toBe(0)
    const all = installed(JSON.parse(ls.stdout))
    expect(all.has('@duetkit/server')).toBe(true)
    expect(HEAVY.filter((name) => all.has(name))).toEqual([])
    for (const name of HEAVY) expect(existsSync(join(dir, 'node_modules', name)), name).toBe(false)
  })

  for (const [line, variable, fallbacks] of NODES) {
    it(`serves an app tool over HTTP to an MCP client on Node ${line}`, async () => {
      const node = nodeBinary(line, variable, fallbacks)
      const child = spawn(node, ['server.mjs'], { cwd: dir, env: { ...env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] })
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let stderr = ''
          child.stderr.on('data', (chunk) => {
            stderr += chunk
            const match = /listening on (\S+)/.exec(stderr)
            if (match) resolve(match[1])
          })
          child.once('exit', (code) => reject(new Error(`the server exited ${code}: ${stderr}`)))
        })
        const client = new Client({ name: 'core-install-test', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(url)))
        const { tools } = await client.listTools()
        const greet = tools.find((tool) => tool.name === 'greet')
        expect(greet?._meta).toMatchObject({ ui: { resourceUri: 'ui://core-only/greet.html' } })
        const result = await client.callTool({ name: 'greet', arguments: { who: 'Ada' } })
        expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(new RegExp(`^Hello, Ada from Node ${line}\\.`)) }])
        const { contents } = await client.readResource({ uri: 'ui://core-only/greet.html' })
        expect(contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: expect.stringContaining('<p id="v">view</p>') })
        await client.close()
      } finally {
        child.kill('SIGTERM')
      }
    })

    it(`loads no native addon when the core is imported on Node ${line}`, () => {
      const probe = spawnSync(nodeBinary(line, variable, fallbacks), ['probe.mjs'], { cwd: dir, encoding: 'utf8' })
      expect(probe.status, probe.stderr).toBe(0)
      const report = JSON.parse(probe.stdout) as { count: number; addons: string[] }
      // The report does list shared objects (libc and the like), so an empty addon list means none was loaded.
      expect(report.count).toBeGreaterThan(0)
      expect(report.addons).toEqual([])
    })
  }
})
