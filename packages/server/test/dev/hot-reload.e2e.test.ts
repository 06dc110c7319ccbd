import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FORECAST_NEEDS } from './fixtures/forecast-copy.mjs'
import { useForecastDevStage } from './forecast-dev-stage.js'
import { builtOutputs } from '../../../../test/support/built.js'

// `duet dev --watch` on a copy of the forecast example: Vite rebuilds on save, the view is re-mounted
// with the picked day kept (App.persist) and the last input and result replayed.
const WAIT = { timeout: 30_000 }

const READY = builtOutputs('duet dev --watch on the forecast example', FORECAST_NEEDS)

describe.skipIf(!READY)('duet dev --watch on the forecast example', { timeout: 120_000 }, () => {
  const stage = useForecastDevStage({ watch: true })
  const appSource = () => `${stage.dir}/src/App.jsx`

  it('built the view before serving it', () => {
    expect(existsSync(`${stage.dir}/dist/index.html`)).toBe(true)
  })

  it('rebuilds on save and re-mounts the view with the picked day still picked', async () => {
    await stage.page.getByTestId('tool-get_forecast').click()
    await stage.page.getByTestId('field-city').fill('Lisbon')
    await stage.page.getByTestId('call-button').click()
    await stage.view().locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    const third = stage.view().locator('button.day').nth(2)
    await third.click()
    await stage.view().locator('button.day[aria-pressed=true]').waitFor(WAIT)
    const picked = await third.innerText()
    // The state is saved after the flush that changed it; the model context is sent in the same turn.
    await stage.page.getByTestId('model-context').filter({ hasText: 'selectedDay' }).waitFor(WAIT)

    writeFileSync(appSource(), readFileSync(appSource(), 'utf8').replace('`Forecast for ', '`Weather for '))
    await stage.view().locator('h1').filter({ hasText: 'Weather for Lisbon' }).waitFor(WAIT)
    await stage.view().locator('button.day[aria-pressed=true]').waitFor(WAIT)
    expect(await stage.view().locator('button.day[aria-pressed=true]').innerText()).toBe(picked)
    expect(await stage.view().locator('button.day').count()).toBe(5)
    await stage.page.getByTestId('logs').filter({ hasText: 'view rebuilt in' }).waitFor(WAIT)
  })

  it('keeps the last good view on a save that does not build, says why, and reloads once it builds again', async () => {
    const good = readFileSync(appSource(), 'utf8')
    writeFileSync(appSource(), `${good}\nexport const broken = (\n`)
    await stage.page.getByTestId('logs').filter({ hasText: 'the view did not build' }).waitFor(WAIT)
    expect(await stage.view().locator('h1').innerText()).toBe('Weather for Lisbon')
    expect(await stage.view().locator('button.day[aria-pressed=true]').count()).toBe(1)

    writeFileSync(appSource(), good.replace('`Weather for ', '`Outlook for '))
    await stage.view().locator('h1').filter({ hasText: 'Outlook for Lisbon' }).waitFor(WAIT)
    expect(await stage.view().locator('button.day[aria-pressed=true]').count()).toBe(1)
  })
})
