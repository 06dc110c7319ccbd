// The server of the refetch sample: one app tool whose answer changes over time (a queue's length).
import * as z from 'zod'
import { createAppServer } from '@duetkit/server'

export function createQueueServer(viewHtml: () => string, waiting: (queue: string) => number) {
  return createAppServer({ name: 'queue', version: '1.0.0' }).appTool(
    'show_queue',
    {
      description: 'Shows how many tickets wait in a support queue, and when that was counted.',
      inputSchema: { queue: z.string().max(40) },
      outputSchema: { queue: z.string(), waiting: z.number(), countedAt: z.string() },
      view: { html: viewHtml, uri: 'ui://queue/view.html' },
    },
    async ({ queue }) => {
      const count = waiting(queue)
      return {
        content: [{ type: 'text', text: `${queue}: ${count} waiting` }],
        structuredContent: { queue, waiting: count, countedAt: new Date().toISOString() },
      }
    },
  )
}

export type QueueServer = ReturnType<typeof createQueueServer>
