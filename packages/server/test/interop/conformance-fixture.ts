import { fromJsonSchema, ResourceTemplate, type ElicitRequestFormParams } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { createAppServer, type AppServer, type ToolExtra } from '../../src/server/index.js'

// The fixtures the conformance suite's server scenarios call (tools, resources, prompts, logging, completion),
// registered on our own createAppServer so the scenarios exercise Duet's transport and server core.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] })

async function elicit(extra: ToolExtra, params: ElicitRequestFormParams, label: string) {
  try {
    const answer = await extra.mcpReq.elicitInput(params)
    return text(`${label}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)
  } catch (err) {
    return text(`Elicitation not supported or error: ${(err as Error).message}`)
  }
}

/** A server with every fixture the suite's server scenarios use. */
export function conformanceFixture(): AppServer {
  return createAppServer({ name: 'duet-conformance-fixture', version: '1.0.0' })
    .tool('test_simple_text', { description: 'Simple text' }, async () => text('This is a simple text response for testing.'))
    .tool('test_image_content', { description: 'Image content' }, async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }))
    .tool('test_audio_content', { description: 'Audio content' }, async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }))
    .tool('test_embedded_resource', { description: 'Embedded resource' }, async () => ({
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
    }))
    .tool('test_multiple_content_types', { description: 'Text, image and resource' }, async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
        },
      ],
    }))
    .tool('test_tool_with_logging', { description: 'Logs while it runs' }, async (_args, extra) => {
      for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
        if (i > 0) await pause(50)
        await extra.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } })
      }
      return text('Tool with logging executed successfully')
    })
    .tool('test_tool_with_progress', { description: 'Reports progress' }, async (_args, extra) => {
      const progressToken = extra.mcpReq._meta?.progressToken ?? 0
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await pause(50)
        await extra.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
        })
      }
      return text(String(progressToken))
    })
    .tool('test_error_handling', { description: 'Fails' }, async () => {
      throw new Error('This tool intentionally returns an error for testing')
    })
    .tool('test_reconnection', { description: 'Closes its SSE stream mid-call; the result comes after the client reconnects' }, async (_args, extra) => {
      extra.http?.closeSSE?.()
      await pause(100)
      return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.')
    })
    .tool('test_sampling', { description: 'Samples', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
      try {
        const reply = await extra.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 })
        const content = Array.isArray(reply.content) ? reply.content[0] : reply.content
        return text(`LLM response: ${content?.type === 'text' ? content.text : 'No response'}`)
      } catch (err) {
        return text(`Sampling not supported or error: ${(err as Error).message}`)
      }
    })
    .tool('test_elicitation', { description: 'Elicits', inputSchema: { message: z.string() } }, async ({ message }, extra) =>
      elicit(
        extra,
        {
          mode: 'form',
          message,
          requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
        },
        'User response',
      ),
    )
    .tool('test_elicitation_sep1034_defaults', { description: 'Elicits with defaults' }, async (_args, extra) =>
      elicit(
        extra,
        {
          mode: 'form',
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        },
        'Elicitation completed',
      ),
    )
    .tool('test_elicitation_sep1330_enums', { description: 'Elicits with enum forms' }, async (_args, extra) =>
      elicit(
        extra,
        {
          mode: 'form',
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Select one option (legacy)',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Select multiple options',
                minItems: 1,
                maxItems: 3,
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                minItems: 1,
                maxItems: 3,
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        } as ElicitRequestFormParams,
        'Elicitation completed',
      ),
    )
    .tool(
      'json_schema_2020_12_tool',
      {
        description: 'JSON Schema 2020-12 input (SEP-1613)',
        inputSchema: fromJsonSchema<{ name?: string; address?: { street?: string; city?: string } }>({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
          properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
          additionalProperties: false,
        }),
      },
      async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    )
    .configure((mcp) => {
      mcp.server.registerCapabilities({ logging: {}, completions: {}, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } })
      const resource = (name: string, uri: string, mimeType: string, body: { text: string } | { blob: string }) =>
        mcp.registerResource(name, uri, { title: name, description: `${name} for conformance`, mimeType }, async () => ({
          contents: [{ uri, mimeType, ...body }],
        }))
      resource('static-text', 'test://static-text', 'text/plain', { text: 'This is the content of the static text resource.' })
      resource('static-binary', 'test://static-binary', 'image/png', { blob: PNG })
      resource('watched-resource', 'test://watched-resource', 'text/plain', { text: 'Watched resource content' })
      mcp.registerResource(
        'template',
        new ResourceTemplate('test://template/{id}/data', { list: undefined }),
        { title: 'Resource Template', description: 'A template with a parameter', mimeType: 'application/json' },
        async (uri, { id }) => ({
          contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
        }),
      )
      mcp.server.setRequestHandler('resources/subscribe', async () => ({}))
      mcp.server.setRequestHandler('resources/unsubscribe', async () => ({}))
      mcp.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }))
      mcp.registerPrompt('test_simple_prompt', { title: 'Simple', description: 'No arguments' }, async () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
      }))
      mcp.registerPrompt(
        'test_prompt_with_arguments',
        { title: 'With arguments', description: 'Two arguments', argsSchema: z.object({ arg1: z.string(), arg2: z.string() }) },
        async ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
      )
      mcp.registerPrompt(
        'test_prompt_with_embedded_resource',
        { title: 'Embedded resource', description: 'Embeds a resource', argsSchema: z.object({ resourceUri: z.string() }) },
        async ({ resourceUri }) => ({
          messages: [
            {
              role: 'user',
              content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
            },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        }),
      )
      mcp.registerPrompt('test_prompt_with_image', { title: 'Image', description: 'An image' }, async () => ({
        messages: [
          { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      }))
    })
}
