import type { FrameLocator } from 'playwright-core'
import { expect } from 'vitest'

/**
 * The forecast card at work in a host, whichever dialect it speaks: picking a day marks it, and refresh
 * calls the tool again through the host and settles with the five days and no error shown.
 */
export async function expectForecastCardWorks(view: FrameLocator): Promise<void> {
  await view.locator('.day').nth(2).click()
  await expect.poll(() => view.locator('.day').nth(2).getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('true')
  await view.locator('.refresh').click()
  await expect.poll(() => view.locator('p[role=status]').textContent(), { timeout: 20_000 }).toBe('')
  expect(await view.locator('.day').count()).toBe(5)
  expect(await view.locator('[role=alert]').count()).toBe(0)
}
