// duet dev's page against a server protected by a real issuer: the 401 shows in the trace and the server's
// status, a token pasted in the field connects it, and its tools then act for the token's subject.
import type { Browser, Page } from 'playwright-core'
import { openDevPage } from '../dev/dev-page.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServer, subjectOf } from '@duetkit/server'
import * as z from 'zod'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { startIssuer, type TestIssuer } from './oidc-issuer.js'

const WAIT = { timeout: 20_000 }

describe('duet dev page and a protected server', { timeout: 90_000 }, () => {
  let issuer: TestIssuer
  let dev: DevServer
  let browser: Browser
  let page: Page
  let url: string
  const app = () =>
    createAppServer({ name: 'guarded', version: '1.0.0', auth: { issuer: issuer.url } }).tool(
      'whoami',
      { description: 'Who calls', outputSchema: { sub: z.string().nullable() } },
      async (_args, ctx) => ({ content: [{ type: 'text', text: `you are ${subjectOf(ctx)}` }], structuredContent: { sub: subjectOf(ctx) ?? null } }),
    )
  let server: ReturnType<typeof app>

  beforeAll(async () => {
    issuer = await startIssuer()
    server = app()
    url = (await server.listen({ http: { port: 0 }, handleSignals: false })).url!
    dev = await startDevServer({ servers: [{ kind: 'http', url }], port: 0, pollMs: 300 })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url)
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await server?.close()
    await issuer?.close()
  })

  it('shows the 401 with its challenge, then connects with a pasted token and calls as its subject', async () => {
    await page.getByTestId('server-status-s1').filter({ hasText: 'error' }).waitFor(WAIT)
    // The retries keep answering 401: the trace shows one with the challenge that names the metadata.
    await page.getByTestId('trace').filter({ hasText: 'invalid_token' }).waitFor(WAIT)
    const trace = await page.getByTestId('trace').innerText()
    expect(trace).toContain('401')
    expect(trace).toContain('resource_metadata')

    const token = await issuer.tokenFor('alice', { audience: url })
    const refusals = () => page.getByTestId('trace').locator('.trace-entry').filter({ hasText: 'invalid_token' }).count()
    const before = await refusals()
    await page.getByTestId('token-input-s1').fill(token)
    // The server keeps being retried (every 300 ms here) while the token sits in the field: what was
    // typed must survive those retries (each one re-renders the server's status), or Set token would send
    // an empty field. Two more refusals in the trace are two retries seen by the page.
    await expect.poll(refusals, WAIT).toBeGreaterThanOrEqual(before + 2)
    expect(await page.getByTestId('token-input-s1').inputValue()).toBe(token)
    await page.getByTestId('token-set-s1').click()
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor(WAIT)
    // The page learns that a token is set, never the token.
    const state = (await (await fetch(new URL('/api/state', dev.url))).json()) as { servers: Array<{ tokenSet?: boolean }> }
    expect(state.servers[0]?.tokenSet).toBe(true)
    expect(JSON.stringify(state)).not.toContain(token)

    await page.getByTestId('tool-whoami').click()
    await page.getByTestId('call-button').click()
    await page.getByText('you are alice').first().waitFor(WAIT)
  })

  it('refuses a token with spaces in the field, saying why', async () => {
    await page.getByTestId('token-input-s1').fill('two words')
    await page.getByTestId('token-set-s1').click()
    await page.getByTestId('token-error-s1').filter({ hasText: 'printable characters' }).waitFor(WAIT)
    expect(await page.getByTestId('server-status-s1').innerText()).toContain('connected')
  })
})
