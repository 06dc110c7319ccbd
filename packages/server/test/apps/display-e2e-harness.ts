import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { Browser, Frame } from 'playwright-core'
import { openHostPage, type HostPage } from '../../../../test/support/host/index.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { SHOTS_DIR as SHOTS } from '../../../../test/support/shots.js'

/** The built `duet` CLI (`npm run build`), or the one `$DUET_BIN` names. */
export function duetBin(): Promise<string> {
  return Promise.resolve(process.env.DUET_BIN ?? builtDuetCli())
}

export interface RunningServe {
  url: string
  child: ChildProcess
  close(): Promise<void>
}

function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode ?? -1)
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
}

/** A real `duet serve --http` process on a free port over `dataDir`. */
export async function startServe(dataDir: string): Promise<RunningServe> {
  const child = spawn(process.execPath, [await duetBin(), 'serve', '--http', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      stderr += c
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
  })
  return {
    url,
    child,
    async close() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      const done = exited(child)
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await done
      clearTimeout(timer)
    },
  }
}

/** An SDK client on an MCP HTTP endpoint: the agent's connection, or the host's. */
export async function connectHttp(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

/** `duet wait <id>` as an agent would run it in the background; resolves with its exit code and output. */
export function spawnWait(
  id: string,
  dataDir: string,
  timeoutSeconds = 60,
): Promise<{ code: number | null; stdout: string; stderr: string; exitedAt: number }> {
  return spawnDuet(['wait', id, '--data-dir', dataDir, '--timeout', String(timeoutSeconds)])
}

/** Runs the built `duet` bin with `args` and resolves when it exits, with what it printed. */
export function spawnDuet(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; exitedAt: number }> {
  return duetBin().then(
    (file) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        let stdout = ''
        let stderr = ''
        child.stdout!.on('data', (c) => (stdout += c))
        child.stderr!.on('data', (c) => (stderr += c))
        child.on('error', reject)
        child.on('exit', (code) => resolve({ code, stdout, stderr, exitedAt: Date.now() }))
      }),
  )
}

/**
 * The official AppBridge test host showing `uri` of the server, with the view's `tools/call`s
 * forwarded to the server through `hostClient`, as a real host does.
 */
export async function openServerView(
  browser: Browser,
  hostClient: Client,
  uri: string,
  options: { proxy?: boolean; hostContext?: Record<string, unknown> } = {},
): Promise<HostPage> {
  const { contents } = await hostClient.readResource({ uri })
  const viewHtml = (contents[0] as { text: string }).text
  const host = await openHostPage(browser, { viewHtml, proxy: options.proxy ?? false, ...(options.hostContext && { hostContext: options.hostContext }) })
  const appTools = new Set(
    (await hostClient.listTools()).tools.filter((t) => ((t._meta as any)?.ui?.visibility ?? ['model', 'app']).includes('app')).map((t) => t.name),
  )
  await host.page.exposeFunction('__duetForwardToolCall', async (name: string, args: Record<string, unknown>) => {
    // A host must refuse a view's call to a tool that is not visible to apps.
    if (!appTools.has(name)) return { isError: true, content: [{ type: 'text', text: `Tool ${name} is not available to apps` }] }
    return hostClient.callTool({ name, arguments: args })
  })
  await host.page.evaluate(() => {
    const h = (window as any).__duetHost
    h.bridge.oncalltool = async (p: { name: string; arguments?: Record<string, unknown> }) => {
      h.events.push({ name: 'calltool', params: JSON.parse(JSON.stringify(p)) })
      return (window as any).__duetForwardToolCall(p.name, p.arguments ?? {})
    }
  })
  return host
}

/**
 * What a host does once the agent's tool call has returned: tool input, then the result, optionally
 * without `_meta` and/or `structuredContent`, as some real hosts pass it on.
 */
export async function deliverToolCall(
  host: HostPage,
  args: Record<string, unknown>,
  result: Record<string, unknown>,
  options: { stripMeta?: boolean; stripStructured?: boolean } = {},
): Promise<void> {
  await host.initialized()
  await host.sendToolInput(args)
  const passed = { ...result }
  if (options.stripMeta || passed._meta === undefined) delete passed._meta
  if (options.stripStructured || passed.structuredContent === undefined) delete passed.structuredContent
  await host.sendToolResult(passed)
}

/** Makes sure the screenshot folder exists and returns the path for `name`. */
export function shotPath(name: string): string {
  mkdirSync(SHOTS, { recursive: true })
  return `${SHOTS}/${name}.png`
}

/** Selects `words` inside the passage `id` with a real DOM selection, as a user's drag would. */
export async function selectWords(frame: Frame, id: string, words: string) {
  await frame.evaluate(
    ([pid, text]) => {
      const passage = document.getElementById(pid)!
      const node = passage.firstChild as Text
      const start = node.data.indexOf(text)
      if (start < 0) throw new Error(`"${text}" is not in #${pid}`)
      const range = document.createRange()
      range.setStart(node, start)
      range.setEnd(node, start + text.length)
      document.getSelection()!.removeAllRanges()
      document.getSelection()!.addRange(range)
      passage.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
    },
    [id, words] as const,
  )
}

/** Selects words in a passage of the reader and asks about them in its ask box. */
export async function askAbout(frame: Frame, id: string, words: string, question: string) {
  await selectWords(frame, id, words)
  await frame.waitForSelector('.ask-box')
  await frame.fill('.question', question)
  await frame.click('.ask')
}
