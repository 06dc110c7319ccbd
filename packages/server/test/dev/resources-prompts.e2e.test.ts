import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ResourceTemplate } from '@modelcontextprotocol/server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { createAppServer, type Listening } from '../../src/index.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import { startListening } from './fixtures/forecast-copy.mjs'
import { builtOutputs } from '../../../../test/support/built.js'

// The resources and prompts tabs against real servers: a createAppServer with a JSON, an HTML and a
// blob resource, a template and prompts (one that fails), and `duet serve`, whose recipes are prompts.
const DUET_BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const WAIT = { timeout: 20_000 }
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString('base64')

function fixtureServer() {
  return createAppServer({ name: 'library', version: '2.0.0' }).configure((mcp) => {
    mcp.registerResource('settings', 'config://settings', { mimeType: 'application/json', description: 'App settings' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: '{"units":"metric","days":5}' }],
    }))
    mcp.registerResource('page', 'file:///page.html', { mimeType: 'text/html' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/html', text: '<main><h1>Title</h1><p>Body</p></main>' }],
    }))
    mcp.registerResource('logo', 'file:///logo.png', { mimeType: 'image/png' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
    }))
    mcp.registerResource('broken', 'config://broken', { mimeType: 'text/plain' }, async () => {
      throw new Error('the disk is on fire')
    })
    mcp.registerResource(
      'book chapter',
      new ResourceTemplate('books://{book}/chapters/{chapter}', { list: undefined }),
      { mimeType: 'text/plain', description: 'One chapter of a book' },
      // The SDK hands variables over as they were in the URI, still percent-encoded.
      async (uri, vars) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Chapter ${vars.chapter} of ${decodeURIComponent(String(vars.book))}` }],
      }),
    )
    mcp.registerPrompt(
      'review',
      {
        title: 'Review code',
        description: 'Asks for a review',
        argsSchema: z.object({ code: z.string().describe('The code to review'), focus: z.string().optional() }),
      },
      ({ code, focus }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Review this${focus ? ` for ${focus}` : ''}:\n${code}` } }],
      }),
    )
    mcp.registerPrompt('fails', { description: 'Always fails' }, () => {
      throw new Error('prompt exploded')
    })
  })
}

const READY = builtOutputs('duet dev resources and prompts tabs', [DUET_BIN])

describe.skipIf(!READY)('duet dev resources and prompts tabs in Chromium', { timeout: 90_000 }, () => {
  let dataDir: string
  let listening: Listening
  let serve: ChildProcess
  let dev: DevServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'duet-dev-tabs-'))
    listening = await fixtureServer().listen({ http: { port: 0 }, handleSignals: false })
    const s = await startListening([DUET_BIN, 'serve', '--http', '--port', '0', '--data-dir', dataDir])
    serve = s.child
    dev = await startDevServer({
      servers: [
        { kind: 'http', url: listening.url! },
        { kind: 'http', url: s.url },
      ],
      port: 0,
    })
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await page.goto(dev.url)
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor(WAIT)
    await page.getByTestId('server-status-s2').filter({ hasText: 'connected' }).waitFor(WAIT)
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await listening?.close()
    serve?.kill()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const resource = (uri: string) => page.locator(`[data-testid=resource-item][data-uri="${uri}"]`)

  it('lists resources and templates, and reads JSON pretty, HTML one tag per line and a blob as size and type', async () => {
    await page.getByTestId('side-tab-resources').click()
    await resource('config://settings').waitFor(WAIT)
    expect(await page.getByTestId('resources-s1').getByTestId('template-item').innerText()).toContain('books://{book}/chapters/{chapter}')

    await resource('config://settings').click()
    const text = page.getByTestId('resource-output').getByTestId('resource-text')
    await text.waitFor(WAIT)
    expect(await text.innerText()).toBe('{\n  "units": "metric",\n  "days": 5\n}')

    await resource('file:///page.html').click()
    await page.getByTestId('resource-output').getByTestId('resource-text').filter({ hasText: '<h1>Title</h1>' }).waitFor(WAIT)
    expect(await page.getByTestId('resource-output').getByTestId('resource-text').innerText()).toBe('<main>\n<h1>Title</h1>\n<p>Body</p>\n</main>')
    // Shown as source, never rendered into the dev page.
    expect(await page.locator('[data-testid=resource-output] h1').count()).toBe(0)

    await resource('file:///logo.png').click()
    await page.getByTestId('resource-blob').waitFor(WAIT)
    expect(await page.getByTestId('resource-blob').innerText()).toBe('blob: 12 bytes, image/png')
  })

  it('fills a template and reads the expanded URI; an empty variable is refused before any request', async () => {
    await page.getByTestId('side-tab-resources').click()
    await page.getByTestId('resources-s1').getByTestId('template-item').click()
    await page.getByTestId('template-var-book').fill('moby dick')
    await page.getByTestId('template-read').click()
    await page.getByTestId('resource-error').filter({ hasText: 'fill in chapter first' }).waitFor(WAIT)
    await page.getByTestId('template-var-chapter').fill('3')
    expect(await page.getByTestId('template-uri').innerText()).toBe('books://moby%20dick/chapters/3')
    await page.getByTestId('template-read').click()
    await page.getByTestId('resource-output').filter({ hasText: 'Chapter 3' }).waitFor(WAIT)
    expect(await page.getByTestId('resource-output').innerText()).toContain('Chapter 3 of moby dick')
  })

  it('shows a failing read as an error with the server message, and the page keeps working', async () => {
    await page.getByTestId('side-tab-resources').click()
    await resource('config://broken').click()
    const error = page.getByTestId('resource-error')
    await error.waitFor(WAIT)
    expect(await error.innerText()).toMatch(/resources\/read config:\/\/broken failed \(-?\d+\): .*the disk is on fire/)
    await resource('config://settings').click()
    await page.getByTestId('resource-text').filter({ hasText: '"units": "metric"' }).waitFor(WAIT)
  })

  it('lists prompts, builds a form from their arguments, gets one and shows its messages', async () => {
    await page.getByTestId('side-tab-prompts').click()
    await page.locator('[data-testid=prompt-item][data-name=review]').click()
    expect(await page.getByTestId('prompt-form').innerText()).toContain('code *')
    await page.getByTestId('prompt-get').click()
    await page.getByTestId('prompt-error').filter({ hasText: 'required: code' }).waitFor(WAIT)
    await page.getByTestId('prompt-arg-code').fill('let x = 1\n// why?')
    await page.getByTestId('prompt-get').click()
    const message = page.getByTestId('prompt-message')
    await message.waitFor(WAIT)
    expect(await message.innerText()).toBe('user\nReview this:\nlet x = 1\n// why?')
    await page.getByTestId('prompt-arg-focus').fill('naming')
    await page.getByTestId('prompt-get').click()
    await page.getByTestId('prompt-message').filter({ hasText: 'Review this for naming:' }).waitFor(WAIT)
  })

  it('shows a prompt that throws as an error, and gets duet serve recipes as prompts', async () => {
    await page.getByTestId('side-tab-prompts').click()
    await page.locator('[data-testid=prompt-item][data-name=fails]').click()
    await page.getByTestId('prompt-get').click()
    await page.getByTestId('prompt-error').filter({ hasText: 'prompt exploded' }).waitFor(WAIT)

    await page.getByTestId('prompts-s2').locator('[data-testid=prompt-item][data-name=getting-started]').click()
    expect(await page.getByTestId('prompt-form').innerText()).toContain('This prompt takes no arguments.')
    await page.getByTestId('prompt-get').click()
    await page.getByTestId('prompt-message').filter({ hasText: 'display_ui_to_user' }).waitFor(WAIT)
    await page.screenshot({ path: `${SHOTS_DIR}/dev-prompts-tab.png` })
  })
})
