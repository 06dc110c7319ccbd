import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { createForecastServer, type ForecastServer } from './server.js'
import { forecastFor, type Forecast } from './forecast.js'

describe('forecast data', () => {
  it('is deterministic per city and differs between cities', () => {
    expect(forecastFor(' Lisbon ')).toEqual(forecastFor('Lisbon'))
    expect(forecastFor('LISBON').days).toEqual(forecastFor('Lisbon').days)
    expect(forecastFor('Lisbon').days).not.toEqual(forecastFor('Oslo').days)
  })
})

// The server and an SDK client joined in memory: the whole MCP surface, no host and no port.
describe('the MCP server', () => {
  let client: Client
  let app: ForecastServer
  beforeEach(async () => {
    app = createForecastServer()
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await app.mcp.connect(serverSide)
    client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
  })
  afterEach(async () => {
    await client.close()
    await app.close()
  })

  it('lists get_forecast with its view and the shape of its structured result', async () => {
    const { tools } = await client.listTools()
    // duet_view_state is the app-only tool views keep App.persist state through where they have no localStorage
    expect(tools.map((t) => t.name)).toEqual(['get_forecast', 'duet_view_state'])
    expect(tools[0]?._meta).toMatchObject({ ui: { resourceUri: 'ui://forecast/view.html' } })
    expect(tools[1]?._meta).toMatchObject({ ui: { visibility: ['app'] } })
    expect(tools[0]?.outputSchema).toMatchObject({ type: 'object', required: ['city', 'days'] })
  })

  it('answers get_forecast with five days for the view and a summary for the model', async () => {
    const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual(forecastFor('Lisbon'))
    const { days } = result.structuredContent as unknown as Forecast
    expect(days.map((d) => d.date)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
    for (const day of days) expect(day.high).toBeGreaterThan(day.low)
    expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/^Forecast for Lisbon: Mon /)
  })

  it('rejects wrong arguments with a message naming the problem', async () => {
    const answer = await client.callTool({ name: 'get_forecast', arguments: { town: 'Lisbon' } }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    )
    expect(answer).toMatch(/Input validation error/)
    expect(answer).toMatch(/city/)
  })

  it('serves the built view as the ui:// resource', async () => {
    // `npm test` builds dist/index.html first.
    const { contents } = await client.readResource({ uri: 'ui://forecast/view.html' })
    expect(contents[0]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      text: readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8'),
      _meta: { ui: { prefersBorder: true } },
    })
  })
})
