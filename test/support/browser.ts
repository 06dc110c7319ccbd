import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium; Playwright cannot download its own browsers on our machines. */
export const CHROMIUM_PATH = process.env.DUET_CHROMIUM ?? '/usr/bin/chromium'

// Without the background-networking flags Chromium keeps dialling out and the closed network refuses it.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** The key under which vitest's global setup (`shared-chromium.ts`) provides its Chromium's endpoint. */
export const SHARED_CHROMIUM_KEY = 'duetChromiumWs'

declare module 'vitest' {
  export interface ProvidedContext {
    duetChromiumWs: string | undefined
  }
}

// Inside a vitest run with the root config, the one Chromium its global setup started; else undefined
// (a bench, or `npm run test:unit`). `vitest` is loaded only then: benches import this file without it.
async function sharedEndpoint(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined
  const { inject } = await import('vitest')
  return inject(SHARED_CHROMIUM_KEY)
}

/**
 * Headless Chromium for an end-to-end test. In a vitest run this is a connection to the run's one
 * shared Chromium (each test file gets its own contexts, and `close()` ends only the connection and
 * those contexts); with `extraArgs` (browser-wide flags) or outside vitest, a Chromium of its own.
 * Close it in `afterAll`.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const shared = extraArgs.length === 0 ? await sharedEndpoint() : undefined
  if (shared) return chromium.connect(shared)
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...extraArgs] })
}
