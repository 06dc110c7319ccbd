// What the scaffold e2e files share: scaffolds a project of one language from this checkout, installs
// it once, and checks what a user would: their own `npm test`, the server over HTTP and stdio with the
// MCP SDK client, the ui:// resource, and the built view in Chromium under the official AppBridge.
// One file a language (scaffold-js, scaffold-ts), so the two installs run in parallel workers.
import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { launchBrowser } from '../../../test/support/browser.ts'
import { openHostPage } from '../../../test/support/host/index.ts'
import { freePortPair } from '../../../test/support/ports.ts'

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url))
import { SHOTS_DIR as SHOTS } from '../../../test/support/shots.ts'
export const INSTALL_TIMEOUT = 900_000

// A clean environment: none of the npm_* variables of an enclosing `npm test`, and the npm cache
// preferred, so the installs work offline when the cache has the packages.
export const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
env.npm_config_prefer_offline = 'true'

/** Runs a command to its end; resolves with its exit code and everything it printed. */
export function run(command, args, cwd, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c) => {
      output += c
    })
    child.stderr.on('data', (c) => {
      output += c
    })
    child.once('error', reject)
    // Colours off: vitest's summary is matched as text.
    child.once('close', (code) => resolve({ code, output: output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '') }))
  })
}

/** Starts the project's HTTP server on a free port and resolves with its URL and the process. */
function startHttp(dir, entry) {
  const child = spawn(process.execPath, [entry], { cwd: dir, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (\S+)/)
      if (match) resolve({ child, url: match[1] })
    })
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)))
  })
}

/**
 * Starts `npm run dev` in its own process group (npm, the script and what it starts) and collects
 * what it prints; `until(re)` waits for a line matching `re`, `stop()` ends the whole group.
 */
function startDev(dir, extraEnv) {
  const child = spawn('npm', ['run', 'dev'], { cwd: dir, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const waiters = []
  const onData = (chunk) => {
    output += chunk
    for (const w of waiters.splice(0))
      if (!w.re.test(output)) waiters.push(w)
      else w.resolve(output)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    until: (re, ms = 120_000) =>
      new Promise((resolve, reject) => {
        if (re.test(output)) return resolve(output)
        const timer = setTimeout(() => reject(new Error(`npm run dev did not print ${re} within ${ms} ms:\n${output}`)), ms)
        waiters.push({
          re,
          resolve: (o) => {
            clearTimeout(timer)
            resolve(o)
          },
        })
      }),
    output: () => output,
    stop: async () => {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
      await exited
    },
  }
}

async function stop(child) {
  if (child.exitCode !== null) return child.exitCode
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  return exited
}

/** What a host sees through one connected client: the tool, a call, bad input and the view. */
async function exercise(client, dir, forecastModule) {
  const { forecastFor } = await import(pathToFileURL(join(dir, forecastModule)).href)
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name)).toEqual(['get_forecast', 'duet_view_state'])
  expect(tools[0]._meta).toMatchObject({ ui: { resourceUri: 'ui://forecast/view.html' } })

  const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } })
  expect(result.isError).toBeFalsy()
  expect(result.structuredContent).toEqual(forecastFor('Lisbon'))
  expect(result.content[0].text).toMatch(/^Forecast for Lisbon: Mon /)
  const bad = await client.callTool({ name: 'get_forecast', arguments: { city: '' } }).then(
    (r) => JSON.stringify(r),
    (e) => e.message,
  )
  expect(bad).toMatch(/Input validation error/)

  const { contents } = await client.readResource({ uri: 'ui://forecast/view.html' })
  const html = contents[0].text
  expect(contents[0].mimeType).toBe('text/html;profile=mcp-app')
  expect(html).toBe(readFileSync(join(dir, 'dist/index.html'), 'utf8'))
  // A whole document with the view inlined: the host gives the iframe no other file.
  expect(html).toMatch(/^<!doctype html>/i)
  expect(html.trimEnd()).toMatch(/<\/html>$/)
  expect(html).not.toMatch(/<script[^>]+src=/)
  expect(html).not.toMatch(/<link[^>]+rel="?stylesheet/)
  // The bundle is inlined: one module script of some size (minified code may hold a `<` anywhere).
  expect(/<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1]?.length ?? 0).toBeGreaterThan(1000)
  expect(html).toContain('.day[aria-pressed=')
  return result
}

const LANGUAGES = [
  { language: 'js', label: 'JavaScript', flags: [], entry: 'server/server.js', forecast: 'server/forecast.js' },
  { language: 'ts', label: 'TypeScript', flags: ['--ts'], entry: 'build/server.js', forecast: 'build/forecast.js' },
]

/**
 * The scaffold suite for one language, in a fresh temporary folder with its own browser; returns the
 * folder (read it inside a test or hook) so a file can add tests on what was scaffolded there.
 */
export function describeProject(language) {
  const { label, flags, entry, forecast } = LANGUAGES.find((l) => l.language === language)
  let root
  let browser
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), `duet-scaffold-${language}-`))
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  describe(`a ${label} project`, () => {
    const name = `forecast-${language}`
    let dir
    let lisbon

    beforeAll(async () => {
      const created = await run(process.execPath, [BIN, name, '--template', 'mcp-app', ...flags], root)
      expect(created.code, created.output).toBe(0)
      expect(created.output).toContain(`Created ${name} (mcp-app, ${label})`)
      dir = join(root, name)
      const built = await run('npm', ['run', 'build'], dir)
      expect(built.code, built.output).toBe(0)
    }, INSTALL_TIMEOUT)

    it('depends on its own copies of duetkit and @duetkit/server packed from this checkout', () => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      expect(pkg.name).toBe(name)
      expect(pkg.dependencies).toMatchObject({
        duetkit: 'file:vendor/duetkit-0.1.0.tgz',
        '@duetkit/server': 'file:vendor/duetkit-server-0.1.0.tgz',
        zod: expect.any(String),
      })
      // Installed like published packages: folders of their own, not links into the checkout.
      for (const installed of ['duetkit', '@duetkit/server']) {
        expect(lstatSync(join(dir, 'node_modules', installed)).isSymbolicLink()).toBe(false)
        expect(lstatSync(join(dir, 'node_modules', installed, 'dist/index.js')).isFile()).toBe(true)
      }
      // No native addon to build: the CLI's SQLite stores run on node:sqlite, and better-sqlite3 is an optional peer.
      expect(existsSync(join(dir, 'node_modules/better-sqlite3'))).toBe(false)
      // The server's own `duetkit@^0.1.0` is the vendored duetkit, not a copy from the registry.
      expect(existsSync(join(dir, 'node_modules/@duetkit/server/node_modules/duetkit'))).toBe(false)
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'))
      const duetkits = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/duetkit$/.test(path))
      expect(duetkits).toEqual([['node_modules/duetkit', expect.objectContaining({ resolved: 'file:vendor/duetkit-0.1.0.tgz' })]])
      expect(lock.packages['node_modules/@duetkit/server'].dependencies).toMatchObject({ duetkit: '^0.1.0' })
    })

    it('passes its own npm test', async () => {
      const { code, output } = await run('npm', ['test'], dir)
      expect(code, output).toBe(0)
      const passed = Number(output.match(/Tests\s+(\d+) passed/)?.[1])
      expect(passed, output).toBeGreaterThanOrEqual(7)
      expect(output).not.toMatch(/Tests\s+.*\d+ failed/)
      // It ends with `npm run check`: duet check on its own built view, every check passing.
      expect(output).toMatch(/^PASS {2}strict JSON-RPC /m)
      expect(output).toContain('all 17 checks passed')
    }, 300_000)

    if (language === 'ts')
      it('fails its npm test, before any test runs, when the view has a type error', async () => {
        const app = join(dir, 'src/App.tsx')
        const original = readFileSync(app, 'utf8')
        expect(original).toMatch(/state\.city\b/)
        writeFileSync(app, original.replace(/state\.city\b/, 'state.cty'))
        try {
          const { code, output } = await run('npm', ['test'], dir)
          expect(code, output).not.toBe(0)
          expect(output).toMatch(/src\/App\.tsx\(\d+,\d+\): error TS\d+: Property 'cty' does not exist/)
          expect(output).not.toMatch(/Test Files/)
        } finally {
          // The last test, npm run dev, sees the restored file type-check ("Found 0 errors").
          writeFileSync(app, original)
        }
      }, 120_000)

    it('serves get_forecast and its view over Streamable HTTP', async () => {
      const { child, url } = await startHttp(dir, entry)
      try {
        const client = new Client({ name: 'test', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(url)))
        try {
          lisbon = await exercise(client, dir, forecast)
        } finally {
          await client.close()
        }
      } finally {
        expect(await stop(child)).toBe(0)
      }
    })

    it('serves the same over stdio', async () => {
      const client = new Client({ name: 'test', version: '1.0.0' })
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, '--stdio'], cwd: dir, env, stderr: 'pipe' }))
      try {
        await exercise(client, dir, forecast)
      } finally {
        await client.close()
      }
    })

    it('runs its built view in Chromium under the official AppBridge', async () => {
      const html = readFileSync(join(dir, 'dist/index.html'), 'utf8')
      const host = await openHostPage(browser, { viewHtml: html, toolResults: { get_forecast: lisbon } })
      try {
        await host.initialized()
        const init = (await host.log()).find((m) => m.dir === 'view->host' && m.data.method === 'ui/initialize')
        expect(init.data.params.appCapabilities).toEqual({ availableDisplayModes: ['inline', 'fullscreen'] })
        expect(init.data.params.appInfo).toEqual({ name, version: '0.0.0' })

        const frame = host.viewFrame()
        await host.sendToolInput({ city: 'Lisbon' })
        await host.sendToolResult(lisbon)
        await frame.waitForFunction(() => document.querySelectorAll('.day').length === 5, undefined, { timeout: 20_000 })
        expect(await frame.textContent('h1')).toBe('Forecast for Lisbon')
        const first = lisbon.structuredContent.days[0]
        expect(await frame.textContent('.day')).toBe(`${first.date}: ${first.sky}, ${first.high}° / ${first.low}°`)

        await frame.click('.day >> nth=2')
        expect((await host.waitForEvent('updatemodelcontext')).params).toEqual({
          structuredContent: { city: 'Lisbon', selectedDay: lisbon.structuredContent.days[2] },
        })
        await frame.click('.refresh')
        expect((await host.waitForEvent('calltool', { name: 'get_forecast' })).params).toEqual({ name: 'get_forecast', arguments: { city: 'Lisbon' } })
        await frame.waitForFunction(() => document.querySelector('[role=status]')?.textContent === '', undefined, { timeout: 20_000 })
        if (language === 'js') await host.page.locator('#view').screenshot({ path: `${SHOTS}/starter-forecast-light.png` })

        // The test host offers inline and full screen; the card asks, and shows what the host chose.
        expect(await frame.textContent('.fullscreen')).toBe('Full screen')
        await frame.click('.fullscreen')
        expect((await host.waitForEvent('requestdisplaymode')).params).toEqual({ mode: 'fullscreen' })
        await frame.waitForFunction(() => document.querySelector('.fullscreen')?.textContent === 'Exit full screen', undefined, { timeout: 20_000 })

        await host.sendHostContextChange({ theme: 'dark', availableDisplayModes: ['inline'], displayMode: 'inline' })
        await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && !document.querySelector('.fullscreen'), undefined, {
          timeout: 20_000,
        })
        expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 25, 29)')
        if (language === 'js') await host.page.locator('#view').screenshot({ path: `${SHOTS}/starter-forecast-dark.png` })
        expect((await host.events()).filter((e) => e.name === 'onerror')).toEqual([])
      } finally {
        await host.close()
      }
    })

    // Last: duet dev --watch rebuilds dist/ from the broken source it is shown (Vite strips types),
    // so no test after it may read dist/.
    it(`npm run dev serves duet dev on $DUET_DEV_PORT${language === 'ts' ? ', type-checking the view as it is saved' : ''}`, async () => {
      const port = await freePortPair()
      const dev = startDev(dir, { DUET_DEV_PORT: String(port) })
      try {
        await dev.until(new RegExp(`host ready at http://127\\.0\\.0\\.1:${port}/`))
        if (language === 'ts') {
          await dev.until(/Found 0 errors\. Watching for file changes/)
          const app = join(dir, 'src/App.tsx')
          const original = readFileSync(app, 'utf8')
          writeFileSync(app, original.replace(/state\.city\b/, 'state.cty'))
          try {
            await dev.until(/src\/App\.tsx\(\d+,\d+\): error TS2551: Property 'cty' does not exist/)
          } finally {
            writeFileSync(app, original)
          }
        }
      } finally {
        await dev.stop()
      }
    }, 300_000)
  })
  return () => root
}
