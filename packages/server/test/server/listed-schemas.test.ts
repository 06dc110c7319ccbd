// Every schema a Duet server lists must compile in the validators clients use: Ajv in its default
// draft-07 mode (what some hosts run) as well as in 2020-12 mode (MCP's default dialect).
import { afterEach, describe, expect, it } from 'vitest'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as z from 'zod'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer } from '../../src/server/app-server.js'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { tempDataDir } from '../apps/harness.js'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn()
  cleanup = []
})

interface Listed {
  tool: string
  which: 'inputSchema' | 'outputSchema'
  schema: Record<string, unknown>
}

async function listedSchemas(app: AppServer): Promise<Listed[]> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const mcp = app.mcp
  await mcp.connect(serverSide)
  const client = new Client({ name: 'schemas', version: '1' })
  await client.connect(clientSide)
  cleanup.push(
    () => client.close(),
    () => mcp.close(),
  )
  const listed: Listed[] = []
  for (const tool of (await client.listTools()).tools) {
    listed.push({ tool: tool.name, which: 'inputSchema', schema: tool.inputSchema as Record<string, unknown> })
    if (tool.outputSchema) listed.push({ tool: tool.name, which: 'outputSchema', schema: tool.outputSchema as Record<string, unknown> })
  }
  return listed
}

/** The schemas that do not compile, each with the validator's reason. */
function refused(listed: Listed[]): string[] {
  const validators = { 'draft-07 (Ajv default)': new Ajv(), '2020-12': new Ajv2020() }
  const failures: string[] = []
  for (const [mode, ajv] of Object.entries(validators)) {
    for (const { tool, which, schema } of listed) {
      try {
        ajv.compile(schema)
      } catch (err) {
        failures.push(`${mode}: ${tool}.${which}: ${(err as Error).message}`)
      }
    }
  }
  return failures
}

function expectReadable(listed: Listed[]) {
  expect(listed.filter((l) => '$schema' in l.schema).map((l) => `${l.tool}.${l.which}`)).toEqual([])
  expect(refused(listed)).toEqual([])
}

describe('listed tool schemas compile with Ajv in draft-07 and 2020-12 modes', () => {
  it('createAppServer: raw shapes, z.object schemas, app tools and duet_view_state', async () => {
    const app = createAppServer({ name: 'schemas', version: '1.0.0' })
      .tool(
        'shape',
        { description: 'raw shape', inputSchema: { q: z.string().min(1), n: z.number().int().optional() }, outputSchema: { ok: z.boolean() } },
        async () => ({
          content: [],
          structuredContent: { ok: true },
        }),
      )
      .tool(
        'object',
        { description: 'z.object', inputSchema: z.object({ tags: z.array(z.enum(['a', 'b'])) }), outputSchema: z.object({ at: z.string() }) },
        async () => ({
          content: [],
          structuredContent: { at: 'now' },
        }),
      )
      .tool('none', { description: 'no schema' }, async () => ({ content: [] }))
      .appTool('view', { description: 'an app tool', inputSchema: { city: z.string() }, view: { html: '<p>hi</p>' } }, async () => ({ content: [] }))
    const listed = await listedSchemas(app)
    // The schemas keep their content: only the dialect line goes.
    expect(listed.find((l) => l.tool === 'shape' && l.which === 'inputSchema')?.schema).toMatchObject({
      type: 'object',
      properties: { q: { type: 'string', minLength: 1 } },
      required: ['q'],
    })
    expect(listed.map((l) => l.tool)).toContain('duet_view_state')
    expectReadable(listed)
  })

  it('the server duet serve runs: display, channel and agent-apps tools', async () => {
    const tmp = tempDataDir()
    cleanup.push(tmp.remove)
    const app = await createAgentAppsServer({ dataDir: tmp.dir })
    cleanup.push(() => app.close())
    const listed = await listedSchemas(app)
    expect(listed.length).toBeGreaterThan(15)
    expectReadable(listed)
  })

  it('the forecast and reader examples', async () => {
    // @ts-expect-error the example is JavaScript without declarations
    const { createForecastServer } = await import('../../../../examples/forecast/server/server.js')
    expectReadable(await listedSchemas(createForecastServer() as unknown as AppServer))
    const tmp = tempDataDir()
    cleanup.push(tmp.remove)
    const { createReaderServer } = await import('../../../../examples/reader/server/server.js')
    const reader = await createReaderServer({ dataDir: tmp.dir })
    cleanup.push(() => reader.close())
    expectReadable(await listedSchemas(reader as unknown as AppServer))
  })

  it('a schema still validates calls after its dialect line is dropped', async () => {
    const app = createAppServer({ name: 'schemas', version: '1.0.0' }).tool(
      'echo',
      { description: 'echo', inputSchema: { q: z.string().min(2) } },
      async ({ q }) => ({ content: [{ type: 'text', text: q }] }),
    )
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await app.mcp.connect(serverSide)
    const client = new Client({ name: 'schemas', version: '1' })
    await client.connect(clientSide)
    cleanup.push(() => client.close())
    const bad = await client.callTool({ name: 'echo', arguments: { q: 'x' } })
    expect(bad.isError).toBe(true)
    const good = await client.callTool({ name: 'echo', arguments: { q: 'xy' } })
    expect(good.content).toEqual([{ type: 'text', text: 'xy' }])
  })
  it('converts a schema to JSON Schema once, not on every tools/list of every request', async () => {
    let conversions = 0
    const shape = z.object({ q: z.string() })
    const standard = shape['~standard'] as unknown as { jsonSchema: { input: (o: unknown) => unknown; output: (o: unknown) => unknown } }
    const counted = {
      '~standard': {
        ...standard,
        jsonSchema: {
          input: (options: unknown) => {
            conversions++
            return standard.jsonSchema.input(options)
          },
          output: standard.jsonSchema.output,
        },
      },
    }
    const app = createAppServer({ name: 'schemas', version: '1.0.0' }).tool(
      'echo',
      { description: 'echo', inputSchema: counted as unknown as typeof shape },
      async () => ({ content: [] }),
    )
    const lists = []
    // Each listing on a fresh server instance, as each HTTP request or session gets.
    for (let i = 0; i < 3; i++) {
      const fresh = (await app.factory({} as never)) as AppServer['mcp']
      lists.push(await listedSchemas({ mcp: fresh } as AppServer))
    }
    expect(conversions).toBe(1)
    expect(lists[2]).toEqual(lists[0])
    expect(lists[0]![0]!.schema).toMatchObject({ type: 'object', properties: { q: { type: 'string' } } })
    expect(lists[0]![0]!.schema.$schema).toBeUndefined()
  })
})
