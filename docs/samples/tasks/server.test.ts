// The task sample run for real: the report server and the SDK's client, linked in memory (a 2025-era client).
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import * as z from 'zod'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { callAsTask, cancelTask } from './client'
import { createReportServer } from './server'

let client: Client
let app: ReturnType<typeof createReportServer>
beforeEach(async () => {
  app = createReportServer('<!doctype html><title>report</title>')
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  client = new Client({ name: 'docs', version: '1.0.0' })
  await client.connect(clientSide)
})
afterEach(async () => {
  await client.close()
  await app.close()
})

it('runs the report as a task and fetches its result', async () => {
  const result = await callAsTask(client, 'build_report', { quarter: 'Q3' })
  expect(result.structuredContent).toEqual({ quarter: 'Q3', rows: 91 })
})

it('cancels the report: the task stays cancelled', async () => {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'build_report', arguments: { quarter: 'Q4' }, task: {} } },
    z.object({ task: z.object({ taskId: z.string() }) }),
  )
  expect((await cancelTask(client, created.task.taskId)).status).toBe('cancelled')
})
