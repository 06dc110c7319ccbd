// The docs site builds offline: TypeDoc writes the API reference from the TSDoc, VitePress builds every
// page (it fails on a dead link between pages), and the samples it shows are the files the tests run.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist = join(root, 'docs/.vitepress/dist')
let build: ReturnType<typeof spawnSync>

beforeAll(() => {
  build = spawnSync('npm', ['run', 'docs:build'], { cwd: root, encoding: 'utf8', timeout: 240_000 })
}, 260_000)

describe('the docs site', () => {
  it('builds with no network and no dead link', () => {
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0)
    expect(existsSync(join(dist, 'index.html'))).toBe(true)
  })

  it('has a page for every guide in the sidebar, and the API reference of each entry point', () => {
    for (const page of ['guide/first-app', 'guide/dom-and-testing', 'guide/channels', 'reference/index', 'reference/errors']) {
      expect(existsSync(join(dist, `${page}.html`)), page).toBe(true)
    }
    const api = readdirSync(join(dist, 'reference/api'), { recursive: true }).map(String)
    expect(api.some((f) => f.endsWith('makeMcpAppDriver.html'))).toBe(true)
    expect(api.some((f) => f.endsWith('createAppServer.html'))).toBe(true)
    expect(api.some((f) => f.endsWith('renderComponent.html'))).toBe(true)
  })

  it('documents the server options in the API reference, each with its comment', () => {
    const api = join(root, 'docs/reference/api/@duetkit/server')
    // A member's section on its interface's page: its heading, its signature line, then its TSDoc (an undocumented member has none).
    const commentOf = (page: string, member: string) => {
      const text = readFileSync(join(api, page), 'utf8')
      const section =
        text
          .split(/^\*\*\*$/m)
          .find((part) => new RegExp(`^### ${member}\\??$`, 'm').test(part))
          ?.split(/^### .*$/m)[1] ?? ''
      return section
        .split('\n')
        .filter((line) => line.trim() && !line.startsWith('#') && !line.startsWith('> ') && !line.startsWith('['))
        .join(' ')
    }
    const documented: Record<string, string[]> = {
      'interfaces/AppServerOptions.md': ['tasks', 'rateLimit'],
      'interfaces/ListenOptions.md': ['stdio', 'http'],
      'interfaces/TaskOptions.md': ['maxTasks', 'maxTasksPerSubject', 'defaultTtlMs', 'maxTtlMs', 'pollIntervalMs'],
      'interfaces/ToolConfig.md': ['task'],
      'interfaces/AppToolConfig.md': ['task'],
      'interfaces/HttpListenOptions.md': ['maxInFlight', 'maxInFlightPerSubject', 'maxQueuedRequests', 'maxQueuedRequestsPerSubject', 'maxSessions'],
      'interfaces/RateLimitOptions.md': ['all'],
      'apps/interfaces/CompilePoolOptions.md': ['workers', 'niceness', 'coolDownAfter', 'coolDownSeconds', 'maxQueuedPerSubject'],
    }
    const missing = Object.entries(documented).flatMap(([page, members]) => members.filter((m) => commentOf(page, m).length < 20).map((m) => `${page} ${m}`))
    expect(missing).toEqual([])
  })

  it('shows the samples the tests run, not a copy of them', () => {
    const html = readFileSync(join(dist, 'guide/first-app.html'), 'utf8')
    // A line of the sample as Shiki renders it: the text of the tested file, split into tokens.
    const text = html
      .replace(/<[^>]+>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&')
    expect(text).toContain("DRAFT: DOM.input('.draft').value()")
    expect(readFileSync(join(root, 'docs/samples/todo/App.tsx'), 'utf8')).toContain("DRAFT: DOM.input('.draft').value()")
  })
})
