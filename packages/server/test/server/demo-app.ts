import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as z from 'zod'
import { createAppServer, type AppServer } from '@duetkit/server'

/** A server exercising every registration kind, with its view file in a fresh temp folder. */
export interface DemoApp {
  app: AppServer
  viewFile: string
  dir: string
  cleanup(): void
}

export const PAGE_V1 = '<!doctype html><html><head><title>v1</title></head><body>first build</body></html>'

/** Builds the demo server used by the HTTP and unit tests. */
export function demoApp(): DemoApp {
  const dir = mkdtempSync(join(tmpdir(), 'duet-server-'))
  const viewFile = join(dir, 'view.html')
  writeFileSync(viewFile, PAGE_V1)
  const app = createAppServer({ name: 'demo', version: '1.2.3', instructions: 'demo instructions' })
    .tool('echo', { description: 'Echo text back', inputSchema: { text: z.string().max(20) } }, async ({ text }) => ({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }))
    .tool('ping', { description: 'No arguments' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }))
    .tool('refresh', { description: 'App-only', inputSchema: z.object({ n: z.number().int() }), visibility: ['app'] }, async ({ n }) => ({
      content: [{ type: 'text', text: `refreshed ${n}` }],
      structuredContent: { n },
    }))
    .tool('explode', { description: 'Fails on purpose' }, async () => {
      throw new Error('the tool broke')
    })
    .appTool(
      'show',
      {
        description: 'Shows the view',
        inputSchema: { city: z.string() },
        view: {
          file: viewFile,
          csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
          permissions: { clipboardWrite: {} },
          prefersBorder: false,
          domain: 'demo.example-sandbox.com',
        },
      },
      async ({ city }) => ({ content: [{ type: 'text', text: `showing ${city}` }], structuredContent: { city } }),
    )
    .appTool('inline', { description: 'Inline view', view: { html: () => '<!doctype html><p>inline</p>', uri: 'ui://demo/custom/inline.html' } }, async () => ({
      content: [{ type: 'text', text: 'inline' }],
    }))
    .appTool('broken', { description: 'View never built', view: { file: join(dir, 'nope', 'index.html') } }, async () => ({
      content: [{ type: 'text', text: 'broken view, fine result' }],
    }))
  return { app, viewFile, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
