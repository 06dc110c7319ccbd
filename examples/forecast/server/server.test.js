import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { forecastFor } from './forecast.js'

const serverJs = fileURLToPath(new URL('./server.js', import.meta.url))
const viewHtml = fileURLToPath(new URL('../dist/index.html', import.meta.url))
const duetRoot = fileURLToPath(new URL('../../../packages/duet/', import.meta.url))

beforeAll(() => {
  // The server imports the built `duet/server`; `npm test` builds first, a lone run of this file may not have.
  if (!existsSync(`${duetRoot}dist/server/index.js`)) {
    try {
      execFileSync(process.execPath, [fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url)), '-p', `${duetRoot}tsconfig.build.json`], { stdio: 'ignore' })
    } catch {
      // tsc still emits when other modules have type errors; the check below decides.
    }
    if (!existsSync(`${duetRoot}dist/server/index.js`)) throw new Error('duet is not built: run `npm run build` at the repository root')
  }
}, 120_000)

/** Checks one connected client against the server's whole surface. */
async function exercise(client) {
  const { tools } = await client.listTools()
  const tool = tools.find((t) => t.name === 'get_forecast')
  expect(tool?._meta).toMatchObject({ ui: { resourceUri: 'ui://forecast/view.html' }, 'ui/resourceUri': 'ui://forecast/view.html' })

  const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } })
  expect(result.isError).toBeFalsy()
  expect(result.structuredContent).toEqual(forecastFor('Lisbon'))
  const { days } = result.structuredContent
  expect(days.map((d) => d.date)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
  for (const day of days) {
    expect(typeof day.sky).toBe('string')
    expect(day.high).toBeGreaterThan(day.low)
  }
  expect(result.content[0].text).toMatch(/^Forecast for Lisbon: Mon /)

  const bad = await client.callTool({ name: 'get_forecast', arguments: { town: 'Lisbon' } }).then((r) => JSON.stringify(r), (e) => e.message)
  expect(bad).toMatch(/Input validation error/)

  // The view is built by `vite build`; without it the read fails with a clear message and the server carries on.
  const read = client.readResource({ uri: 'ui://forecast/view.html' })
  if (existsSync(viewHtml)) {
    const { contents } = await read
    expect(contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: readFileSync(viewHtml, 'utf8'), _meta: { ui: { prefersBorder: true } } })
  } else {
    await expect(read).rejects.toThrow(/View file for ui:\/\/forecast\/view\.html does not exist \(build the view first\?\)/)
  }
  expect((await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' } })).structuredContent).toEqual(forecastFor('Oslo'))
}

describe('forecast data', () => {
  it('is deterministic per city and differs between cities', () => {
    expect(forecastFor(' Lisbon ')).toEqual(forecastFor('Lisbon'))
    expect(forecastFor('LISBON').days).toEqual(forecastFor('Lisbon').days)
    expect(forecastFor('Lisbon').days).not.toEqual(forecastFor('Oslo').days)
  })
})

describe('forecast server over HTTP', () => {
  let child
  let url
  beforeAll(async () => {
    child = spawn(process.execPath, [serverJs], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
    url = await new Promise((resolve, reject) => {
      let stderr = ''
      child.stderr.on('data', (chunk) => {
        stderr += chunk
        const match = stderr.match(/listening on (\S+)/)
        if (match) resolve(match[1])
      })
      child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)))
    })
  })
  afterAll(async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  for (const era of ['legacy', 'modern']) {
    it(`answers get_forecast (${era} era)`, async () => {
      const client = new Client({ name: 'test', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {})
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      try {
        await exercise(client)
      } finally {
        await client.close()
      }
    })
  }
})

describe('forecast server over stdio', () => {
  it('answers get_forecast', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverJs, '--stdio'], stderr: 'pipe' }))
    try {
      await exercise(client)
    } finally {
      await client.close()
    }
  })
})
