import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_FLAGS, CHROMIUM_PATH, SHARED_CHROMIUM_KEY } from './browser.js'

/**
 * Vitest global setup: one headless Chromium for the whole run, instead of one a test file. Workers
 * reach it through `launchBrowser()` (test/support/browser.ts), which connects to this endpoint.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS })
  project.provide(SHARED_CHROMIUM_KEY, server.wsEndpoint())
  return () => server.close()
}
