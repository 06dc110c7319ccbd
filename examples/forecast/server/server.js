// The forecast MCP server: the get_forecast tool, whose result the host shows with the view in ../dist/index.html.
//   node server/server.js           Streamable HTTP on http://127.0.0.1:3001/mcp (PORT and HOST override)
//   node server/server.js --stdio   stdio, for hosts that spawn the server
import { fileURLToPath } from 'node:url'
import * as z from 'zod'
import { createAppServer } from 'duet/server'
import { forecastFor, summarize } from './forecast.js'

const app = createAppServer({ name: 'forecast', version: '1.0.0' })

app.appTool(
  'get_forecast',
  {
    title: 'Weather forecast',
    description: 'Five-day weather forecast (Mon–Fri, °C) for a city, shown as an interactive card.',
    inputSchema: { city: z.string().trim().min(1).max(100).describe('City name, e.g. "Lisbon"') },
    annotations: { readOnlyHint: true, openWorldHint: false },
    view: {
      // Read at every request, so `npm run build` shows up without restarting the server.
      file: fileURLToPath(new URL('../dist/index.html', import.meta.url)),
      uri: 'ui://forecast/view.html',
      prefersBorder: true,
    },
  },
  async ({ city }) => {
    const forecast = forecastFor(city)
    return { content: [{ type: 'text', text: summarize(forecast) }], structuredContent: forecast }
  },
)

if (process.argv.includes('--stdio')) {
  await app.listen({ stdio: true })
  process.stderr.write('forecast: serving MCP on stdio\n')
} else {
  const port = process.env.PORT === undefined ? 3001 : Number(process.env.PORT)
  const listening = await app.listen({ http: { port, host: process.env.HOST ?? '127.0.0.1' } })
  process.stderr.write(`forecast: listening on ${listening.url}\n`)
}
