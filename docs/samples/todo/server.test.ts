// The to-do sample's server, called by the SDK's client in memory: the tool, its view and its schema.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createTodoServer, type TodoServer } from './server'

let client: Client
let app: TodoServer
beforeEach(async () => {
  app = createTodoServer(() => '<!doctype html><title>todo</title>')
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  client = new Client({ name: 'docs', version: '1.0.0' })
  await client.connect(clientSide)
})
afterEach(async () => {
  await client.close()
  await app.close()
})

it('returns the list as structuredContent and points the host at its view', async () => {
  const { tools } = await client.listTools()
  const tool = tools.find((t) => t.name === 'show_todos')
  expect(tool?._meta?.ui).toMatchObject({ resourceUri: 'ui://todo/view.html' })
  const result = await client.callTool({ name: 'show_todos', arguments: { title: 'Trip', items: ['Tickets', 'Passport'] } })
  expect(result.structuredContent).toEqual({
    title: 'Trip',
    todos: [
      { text: 'Tickets', done: false },
      { text: 'Passport', done: false },
    ],
  })
  const view = await client.readResource({ uri: 'ui://todo/view.html' })
  expect(view.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><title>todo</title>' })
})
