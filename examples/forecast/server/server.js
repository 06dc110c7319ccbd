// The MCP server: the get_forecast tool, whose result the host shows with the view in ../dist/index.html.
//   node server/server.js           Streamable HTTP on http://localhost:3001/mcp (PORT and HOST override)
//   node server/server.js --stdio   stdio, for hosts that start the server themselves
import { realpathSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as z from 'zod'
import { createAppServer } from '@duetkit/server'
import { forecastFor, summarize } from './forecast.js'

// What the tool returns as structuredContent: the SDK checks it, and the view's editor knows it.
const forecastShape = {
  city: z.string(),
  days: z.array(z.object({ date: z.string(), sky: z.string(), high: z.number(), low: z.number() })),
}

/**
 * The server's type, tools included: a view may import it (`@import { ForecastServer } from
 * '../server/server.js'`) to have its `callTool` names, arguments and results checked.
 * @typedef {ReturnType<typeof createForecastServer>} ForecastServer
 */

/** The server with its one tool, not yet listening (the tests connect to it in memory). */
export function createForecastServer() {
  // Returned as chained: each registration adds its tool to the server's type.
  return createAppServer({ name: 'forecast', version: '1.0.0' }).appTool(
    'get_forecast',
    {
      title: 'Weather forecast',
      description: 'Five-day weather forecast (Mon–Fri, °C) for a city, shown as an interactive card.',
      inputSchema: { city: z.string().trim().min(1).max(100).describe('City name, e.g. "Lisbon"') },
      outputSchema: forecastShape,
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
}

// Serve only when run as a program, not when a test imports this module.
const entry = process.argv[1] ? pathToFileURL(realpathSync(process.argv[1])).href : ''
if (import.meta.url === entry) {
  const app = createForecastServer()
  if (process.argv.includes('--stdio')) {
    await app.listen({ stdio: true })
    // stdout carries the protocol, so humans read stderr.
    process.stderr.write('forecast: serving MCP on stdio\n')
  } else {
    const port = process.env.PORT === undefined ? 3001 : Number(process.env.PORT)
    try {
      const listening = await app.listen({ http: { port, host: process.env.HOST ?? '127.0.0.1' } })
      process.stderr.write(`forecast: listening on ${listening.url}\n`)
    } catch (err) {
      // A taken port is a one-line reason and a failing exit code, not a stack trace.
      process.stderr.write(`forecast: ${err instanceof Error ? err.message : String(err)}\n`)
      process.exit(1)
    }
  }
}
