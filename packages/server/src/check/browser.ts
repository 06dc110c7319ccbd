import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { DuetError } from 'duetkit/protocol'
import { missingPackage } from '../channel/optional-peer.js'

/** Where Chromium is looked for when neither the option nor CHROMIUM_PATH / DUET_CHROMIUM names one. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium'

// Chromium dials out for updates and sync unless told not to; on closed networks that only adds noise.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

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

/** Launches headless Chromium through playwright-core; both must be present (see above). */
export async function launchChromium(option?: string, load?: () => Promise<unknown>): Promise<Browser> {
  const executablePath = chromiumPath(option)
  const { chromium } = await importPlaywright(load)
  return chromium.launch({ executablePath, headless: true, args: FLAGS })
}
