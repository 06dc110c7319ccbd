// The server of the to-do sample: one app tool whose view is the to-do list.
import * as z from 'zod'
import { createAppServer } from '@duetkit/server'

const todo = z.object({ text: z.string(), done: z.boolean() })

export function createTodoServer(viewHtml: () => string) {
  return createAppServer({ name: 'todo', version: '1.0.0' }).appTool(
    'show_todos',
    {
      description: 'Shows a to-do list the user can tick off and add to.',
      inputSchema: { title: z.string().max(80), items: z.array(z.string().max(200)).max(50) },
      outputSchema: { title: z.string(), todos: z.array(todo) },
      view: { html: viewHtml, uri: 'ui://todo/view.html' },
    },
    async ({ title, items }) => ({
      content: [{ type: 'text', text: `${title}: ${items.length} items` }],
      structuredContent: { title, todos: items.map((text) => ({ text, done: false })) },
    }),
  )
}

/** The view imports this type only, so its tool calls are checked against the server's schemas. */
export type TodoServer = ReturnType<typeof createTodoServer>
