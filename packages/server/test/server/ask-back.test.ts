// A tool written once asks the client for input and for a completion, whichever era the client speaks:
// 2026-07-28 clients get `input_required` rounds (stateless, per request), 2025-era clients in the
// session mode get the same requests sent to them over their session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import * as z from 'zod'
import { acceptedContent, createAppServer, inputRequired, inputResponse, type AppServer, type Listening } from '../../src/index.js'

const nameSchema = z.object({ name: z.string().min(1) })

// Each handler returns `inputRequired(…)` until the client's answer is in `inputResponses`.
function askingServer(): AppServer {
  return createAppServer({ name: 'asking-back', version: '1' })
    .tool('greet', { description: 'Asks the user their name, then greets them' }, async (_args, extra) => {
      const answer = acceptedContent(extra.mcpReq.inputResponses, 'name', nameSchema)
      if (!answer) {
        const seen = inputResponse(extra.mcpReq.inputResponses, 'name')
        if (seen.kind === 'elicit') return { content: [{ type: 'text', text: `no name (${seen.action})` }] }
        return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: 'Your name?', requestedSchema: nameSchema }) } })
      }
      return { content: [{ type: 'text', text: `hello ${answer.name}` }] }
    })
    .tool('summarize', { description: 'Asks the model for a summary', inputSchema: { text: z.string() } }, async ({ text }, extra) => {
      const reply = inputResponse(extra.mcpReq.inputResponses, 'summary')
      if (reply.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }], maxTokens: 20 }),
          },
        })
      }
      const content = Array.isArray(reply.result.content) ? reply.result.content[0] : reply.result.content
      return { content: [{ type: 'text', text: `summary: ${content?.type === 'text' ? content.text : '?'}` }] }
    })
    .appTool(
      'pick_city',
      { description: 'Asks which city, then shows it', outputSchema: { city: z.string() }, view: { html: '<p>city</p>' } },
      async (_args, extra) => {
        const answer = acceptedContent(extra.mcpReq.inputResponses, 'city', z.object({ city: z.string() }))
        if (!answer)
          return inputRequired({ inputRequests: { city: inputRequired.elicit({ message: 'Which city?', requestedSchema: z.object({ city: z.string() }) }) } })
        return { content: [{ type: 'text', text: answer.city }], structuredContent: { city: answer.city } }
      },
    )
}

interface Asked {
  client: Client
  prompts: string[]
}

async function connect(url: string, era: 'modern' | 'legacy', elicitAction: 'accept' | 'decline' = 'accept'): Promise<Asked> {
  const client = new Client(
    { name: `${era}-client`, version: '1' },
    { capabilities: { sampling: {}, elicitation: { form: {} } }, ...(era === 'modern' && { versionNegotiation: { mode: 'auto' as const } }) },
  )
  const prompts: string[] = []
  client.setRequestHandler('elicitation/create', async (request) => {
    prompts.push(`elicit:${request.params.message}`)
    if (elicitAction === 'decline') return { action: 'decline' }
    const content: Record<string, string> = request.params.message === 'Which city?' ? { city: 'Lisbon' } : { name: 'Ada' }
    return { action: 'accept', content }
  })
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content
    prompts.push(`sample:${first && !Array.isArray(first) && first.type === 'text' ? first.text : '?'}`)
    return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'fake' }
  })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return { client, prompts }
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]?.text

describe('a tool that asks back, written once', () => {
  let app: AppServer
  let stateless: Listening
  let sessions: Listening
  beforeAll(async () => {
    app = askingServer()
    stateless = await app.listen({ http: { port: 0 }, handleSignals: false })
    sessions = await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })
  })
  afterAll(() => app.close())

  for (const [era, where] of [
    ['modern', 'stateless default'],
    ['modern', 'session mode'],
    ['legacy', 'session mode'],
  ] as const) {
    it(`${era === 'modern' ? '2026-07-28' : '2025-era'} client, ${where}: elicits input and requests sampling`, async () => {
      const { client, prompts } = await connect((where === 'session mode' ? sessions : stateless).url!, era)
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25')
        expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe('hello Ada')
        expect(text(await client.callTool({ name: 'summarize', arguments: { text: 'a long story' } }))).toBe('summary: short')
        const picked = await client.callTool({ name: 'pick_city', arguments: {} })
        expect(picked.structuredContent).toEqual({ city: 'Lisbon' })
        // An app tool's result still names its view instance once the round trips are done.
        expect(typeof picked._meta?.viewUUID).toBe('string')
        expect(prompts).toEqual(['elicit:Your name?', 'sample:Summarize: a long story', 'elicit:Which city?'])
      } finally {
        await client.close()
      }
    })
  }

  it('a declined elicitation reaches the handler as declined, in both eras', async () => {
    for (const [era, url] of [
      ['modern', stateless.url!],
      ['legacy', sessions.url!],
    ] as const) {
      const { client } = await connect(url, era, 'decline')
      expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe('no name (decline)')
      await client.close()
    }
  })

  it('a 2025-era client served statelessly gets a readable tool error, not a hang', async () => {
    const { client, prompts } = await connect(stateless.url!, 'legacy')
    const result = await client.callTool({ name: 'greet', arguments: {} })
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(/capabilit/)
    expect(prompts).toEqual([])
    await client.close()
  })
})
