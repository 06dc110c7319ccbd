import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium; Playwright cannot download its own browsers on our machines. */
export const CHROMIUM_PATH = process.env.DUET_CHROMIUM ?? '/usr/bin/chromium'

// Without the background-networking flags Chromium keeps dialling out and the closed network refuses it.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** Launches headless Chromium for an end-to-end test, with `extraArgs` after the usual flags. Close it in `afterAll`. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...extraArgs] })
}
