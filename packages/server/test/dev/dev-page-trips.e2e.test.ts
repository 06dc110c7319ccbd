import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUILT, builtOutputs } from '../../../../test/support/built.js'
import { FORECAST_NEEDS } from './fixtures/forecast-copy.mjs'
import { useForecastDevStage } from './forecast-dev-stage.js'

// What a first look at the duet dev page tripped over: a Close app button with nothing to close, an
// unlabelled prefilled field, the app under the tool's form, "1.0.0none" in the prompts tab, and a
// "View file … does not exist" banner left over a view that rendered fine afterwards.
const WAIT = { timeout: 30_000 }
const READY = builtOutputs('the duet dev page on a forecast copy', [...FORECAST_NEEDS, BUILT.forecastView])

describe.skipIf(!READY)('the duet dev page, first look', { timeout: 120_000 }, () => {
  const stage = useForecastDevStage({ builtView: true, pollMs: 200 })

  it('shows no Close app button while no app is open', async () => {
    expect(await stage.page.getByTestId('close-app').isHidden()).toBe(true)
  })

  it("labels the agent panel's prefilled event field", async () => {
    const field = stage.page.getByLabel('event', { exact: true })
    expect(await field.getAttribute('data-testid')).toBe('agent-event')
    expect(await field.inputValue()).toBe('answer')
  })

  it("puts a server's name and version on a line of their own in the prompts tab", async () => {
    await stage.page.getByTestId('side-tab-prompts').click()
    const section = stage.page.getByTestId('prompts-s1')
    await section.filter({ hasText: 'not offered' }).waitFor(WAIT)
    const lines = (await section.innerText()).split('\n').map((l) => l.trim())
    expect(lines[0]).toBe('forecast 1.0.0')
    expect(lines[1]).toMatch(/^not offered/)
    await stage.page.getByTestId('side-tab-tools').click()
  })

  it('renders the app above the tool form, in view, with Close app beside it', async () => {
    await stage.page.getByTestId('tool-get_forecast').click()
    await stage.page.getByTestId('field-city').fill('Lisbon')
    await stage.page.getByTestId('call-button').click()
    await stage.view().locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    const frame = (await stage.page.getByTestId('app-frame').boundingBox())!
    const form = (await stage.page.getByTestId('call-button').boundingBox())!
    expect(frame.y).toBeLessThan(form.y)
    // The viewport is 1000 px tall: the app's top shows without scrolling.
    expect(frame.y).toBeLessThan(500)
    expect(await stage.page.getByTestId('close-app').isVisible()).toBe(true)
  })

  it('clears a "does not exist" banner once the view renders again', async () => {
    const built = `${stage.dir}/dist/index.html`
    // The file gone for a moment, as between a build's emptying of dist/ and its write.
    renameSync(built, `${built}.away`)
    // The polls that read the missing file do not take the server down: it stays connected.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await stage.page.getByTestId('server-banner').innerText()).toBe('')
    await stage.page.getByTestId('preset-select').selectOption('claude-desktop')
    await stage.page.getByTestId('stage-error').filter({ hasText: 'does not exist' }).waitFor(WAIT)
    renameSync(`${built}.away`, built)
    await stage.page.getByTestId('preset-select').selectOption('full')
    await stage.view().locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    await stage.page.getByTestId('tool-result').filter({ hasText: 'Lisbon' }).waitFor(WAIT)
    await expect.poll(() => stage.page.getByTestId('stage-error').innerText(), WAIT).toBe('')
  })

  it('hides Close app again once the app is closed', async () => {
    await stage.page.getByTestId('close-app').click()
    await expect.poll(() => stage.page.getByTestId('close-app').isHidden(), WAIT).toBe(true)
  })
})

describe.skipIf(!READY)('duet dev --watch after a render failed mid-build', { timeout: 180_000 }, () => {
  const stage = useForecastDevStage({ watch: true })

  it('renders again, banner gone, after the next build even when that build wrote the same view', async () => {
    await stage.page.getByTestId('tool-get_forecast').click()
    await stage.page.getByTestId('field-city').fill('Oslo')
    await stage.page.getByTestId('call-button').click()
    await stage.view().locator('h1').filter({ hasText: 'Forecast for Oslo' }).waitFor(WAIT)

    // A render that read the view while it was gone, as one does between two quick saves.
    const built = `${stage.dir}/dist/index.html`
    renameSync(built, `${built}.away`)
    await stage.page.getByTestId('preset-select').selectOption('claude-desktop')
    await stage.page.getByTestId('stage-error').filter({ hasText: 'does not exist' }).waitFor(WAIT)
    renameSync(`${built}.away`, built)

    // A save that changes nothing the view is built from: the build writes the very same file.
    const app = `${stage.dir}/src/App.jsx`
    writeFileSync(app, readFileSync(app, 'utf8'))
    await stage.view().locator('h1').filter({ hasText: 'Forecast for Oslo' }).waitFor(WAIT)
    await expect.poll(() => stage.page.getByTestId('stage-error').innerText(), WAIT).toBe('')
  })
})
