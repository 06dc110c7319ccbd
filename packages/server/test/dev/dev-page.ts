import type { Browser, BrowserContextOptions, Page } from 'playwright-core'

/**
 * Opens the `duet dev` page at `url` in a new tab of `browser` and waits until its script says it is
 * ready. `beforeLoad` runs on the tab before it navigates (to listen to its responses, say).
 */
export async function openDevPage(
  browser: Browser,
  url: string,
  options: { context?: BrowserContextOptions; beforeLoad?: (page: Page) => void } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, ...options.context })
  options.beforeLoad?.(page)
  await page.goto(url)
  await page.waitForFunction(() => (window as unknown as { __duetDev?: { ready: boolean } }).__duetDev?.ready === true, null, { timeout: 20_000 })
  return page
}
