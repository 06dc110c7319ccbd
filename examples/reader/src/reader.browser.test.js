import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../../../test/support/browser.ts'
import { exampleView } from '../../../test/support/built.ts'

// The built reader in real Chromium: a real text selection reaches the agent request. With no host
// around the page, the request fails, which the thread card must show rather than wait forever.
let browser
let html

beforeAll(async () => {
  html = exampleView('reader')
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

it('selecting words in a passage opens the ask box, and asking creates a thread beside the passage', { timeout: 60_000 }, async () => {
  const page = await browser.newPage()
  try {
    const logged = []
    page.on('console', (m) => logged.push(m.text()))
    await page.setContent(html)
    await page.waitForSelector('#truths')
    // Every failure the runtime survives is logged as `[duet] CODE: …`; none may appear.
    expect(logged.filter((line) => line.startsWith('[duet]'))).toEqual([])
    await page.evaluate(() => {
      const passage = document.getElementById('truths')
      const text = passage.firstChild
      const start = text.data.indexOf('all men are created equal')
      const range = document.createRange()
      range.setStart(text, start)
      range.setEnd(text, start + 'all men are created equal'.length)
      document.getSelection().removeAllRanges()
      document.getSelection().addRange(range)
      passage.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
    })
    await page.waitForSelector('.ask-box')
    expect(await page.textContent('.ask-box .quote')).toBe('“all men are created equal”')
    await page.fill('.question', 'Who counted as men?')
    await page.click('.ask')
    const card = await page.waitForSelector('#truths + .margin .thread')
    expect(await card.textContent()).toContain('Who counted as men?')
    expect(await page.textContent('#truths mark.asked')).toBe('all men are created equal')
    await page.waitForSelector('.thread.failed')
    expect(await page.textContent('.thread .status.error')).toMatch(/did not reach the agent/)
  } finally {
    await page.close()
  }
})
