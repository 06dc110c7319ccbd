import { existsSync } from 'node:fs'
import type { Browser, BrowserServer } from 'playwright-core'
import { DuetError } from 'duetkit/protocol'
import { missingPackage } from '../channel/optional-peer.js'

/** Where Chromium is looked for when neither the option nor CHROMIUM_PATH / DUET_CHROMIUM names one. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium'

// Chromium dials out for updates and sync unless told not to; on closed networks that only adds noise.
const FLAGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

type Playwright = typeof import('playwright-core')

/**
 * Loads playwright-core, an optional peer of @duetkit/server that only `duet check` needs. When it
 * is not installed, fails with BROWSER_UNAVAILABLE saying what to install; `load` is for tests.
 */
export async function importPlaywright(load: () => Promise<unknown> = () => import('playwright-core')): Promise<Playwright> {
  try {
    return (await load()) as Playwright
  } catch (err) {
    if (missingPackage(err) !== 'playwright-core') throw err
    throw new DuetError(
      'BROWSER_UNAVAILABLE',
      'duet check needs the package playwright-core, which is not installed: run `npm install --save-dev playwright-core` in your project.',
      { package: 'playwright-core' },
      { cause: err },
    )
  }
}

/** The Chromium to run: the option, else CHROMIUM_PATH, else DUET_CHROMIUM, else /usr/bin/chromium; it must exist. */
export function chromiumPath(option?: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = option ?? env.CHROMIUM_PATH ?? env.DUET_CHROMIUM ?? DEFAULT_CHROMIUM
  if (!existsSync(path)) {
    const named = option !== undefined ? '--chromium' : env.CHROMIUM_PATH ? 'CHROMIUM_PATH' : env.DUET_CHROMIUM ? 'DUET_CHROMIUM' : undefined
    throw new DuetError(
      'BROWSER_UNAVAILABLE',
      `duet check needs Chromium and found none at ${path}${named ? ` (from ${named})` : ''}: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its executable.`,
      { path },
    )
  }
  return path
}

/** Chromium's sandbox stays on unless asked off, or the process runs as root (where Chromium refuses to start with it). */
export function sandboxFlags(noSandbox: boolean, uid: number | undefined = process.getuid?.()): { args: string[]; note?: string } {
  if (noSandbox) return { args: ['--no-sandbox'], note: "Chromium's sandbox is off (--no-sandbox)" }
  if (uid === 0) return { args: ['--no-sandbox'], note: "Chromium's sandbox is off: running as root, where Chromium cannot start with it" }
  return { args: [] }
}

/** A running headless Chromium: the browser, and a kill that works even when it stopped answering. */
export interface LaunchedChromium {
  browser: Browser
  note?: string
  /** The browser process's id (its helpers run under it). */
  pid?: number
  /** Closes the browser, and kills its process if closing does not end it within 3 s. */
  close(): Promise<void>
}

/** Launches headless Chromium through playwright-core; both must be present (see above). */
export async function launchChromium(option?: string, load?: () => Promise<unknown>, noSandbox = false): Promise<LaunchedChromium> {
  const executablePath = chromiumPath(option)
  const { chromium } = await importPlaywright(load)
  const sandbox = sandboxFlags(noSandbox)
  // A browser server, not chromium.launch: it hands out the process, which a hung page cannot keep alive.
  const server: BrowserServer = await chromium.launchServer({ executablePath, headless: true, args: [...FLAGS, ...sandbox.args] })
  try {
    const browser = await chromium.connect(server.wsEndpoint())
    return {
      browser,
      note: sandbox.note,
      pid: server.process().pid,
      async close() {
        const closed = await Promise.race([server.close().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 3000))])
        if (!closed) await server.kill()
      },
    }
  } catch (err) {
    await server.kill()
    throw err
  }
}
