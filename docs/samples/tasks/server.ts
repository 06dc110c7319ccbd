// A report that takes a while. A 2025-11-25 client may call it as a task: the call answers at once, the
// client polls, and cancelling the task fires `extra.mcpReq.signal`. Any other client calls it plainly.
import * as z from 'zod'
import { createAppServer } from '@duetkit/server'

/** Counts a quarter's rows week by week (slowly), stopping as soon as `signal` fires. */
async function countRows(signal: AbortSignal): Promise<number> {
  let rows = 0
  for (let week = 1; week <= 13; week++) {
    signal.throwIfAborted()
    await new Promise((resolve) => setTimeout(resolve, 20))
    rows += week
  }
  return rows
}

export function createReportServer(viewHtml: string) {
  return createAppServer({
    name: 'reports',
    version: '1.0.0',
    // Per user: 5 tasks kept (running or finished), each for 30 minutes at most.
    tasks: { maxTasksPerSubject: 5, maxTtlMs: 30 * 60_000, pollIntervalMs: 100 },
  }).appTool(
    'build_report',
    {
      description: "Builds a quarter's report",
      inputSchema: { quarter: z.string() },
      outputSchema: { quarter: z.string(), rows: z.number() },
      view: { html: viewHtml },
      task: 'optional',
    },
    async ({ quarter }, extra) => {
      const rows = await countRows(extra.mcpReq.signal)
      return { content: [{ type: 'text', text: `${quarter}: ${rows} rows` }], structuredContent: { quarter, rows } }
    },
  )
}
