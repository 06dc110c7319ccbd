// Calling a task tool with the SDK's client: the call answers with a task at once; poll tasks/get at the
// interval the server suggests, then fetch the tool's own result with tasks/result.
import type { Client } from '@modelcontextprotocol/client'
import * as z from 'zod'

const task = z.object({ taskId: z.string(), status: z.string(), pollInterval: z.number().optional() })
const toolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
})

export async function callAsTask(client: Client, name: string, args: Record<string, unknown>) {
  const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } }, z.object({ task }))
  let state = created.task
  // `input_required`: the server is asking something (over the session); tasks/result waits past it.
  while (state.status === 'working') {
    await new Promise((resolve) => setTimeout(resolve, state.pollInterval ?? 1000))
    state = await client.request({ method: 'tasks/get', params: { taskId: state.taskId } }, task)
  }
  return client.request({ method: 'tasks/result', params: { taskId: state.taskId } }, toolResult)
}

export function cancelTask(client: Client, taskId: string) {
  return client.request({ method: 'tasks/cancel', params: { taskId } }, task)
}
