// The parts of duet check that need no browser: the strict JSON-RPC rules, the capability map, the
// command line, and the messages when playwright-core or Chromium is missing.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { codedError } from '../../../../test/support/coded-error.js'
import { parseCheckArgs } from '../../src/check/arguments.js'
import { chromiumPath, sandboxFlags } from '../../src/check/browser.js'
import { StepFailed, Steps } from '../../src/check/deadlines.js'
import { handshakeOrder, pingAnswered, quietAfterTeardown, uniqueIds } from '../../src/check/lifecycle.js'
import type { RecordedMessage } from '../../src/check/page/contract.js'
import { mimeType, resourceUris, securityMeta, visibilities } from '../../src/check/server-meta.js'
import { capabilityFault } from '../../src/check/capabilities.js'
import { jsonRpcFault } from '../../src/check/jsonrpc-shape.js'
import { resolvePreset, runCheck } from '../../src/check/run-check.js'

describe('strict JSON-RPC', () => {
  it('accepts requests, notifications and responses as the spec shapes them', () => {
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} })).toBeUndefined()
    expect(jsonRpcFault({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })).toBeUndefined()
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 'a', result: {} })).toBeUndefined()
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no' } })).toBeUndefined()
  })

  it('names each fault', () => {
    expect(jsonRpcFault('{"jsonrpc":"2.0"}')).toMatch(/^not a JSON-RPC object/)
    expect(jsonRpcFault({ jsonrpc: '1.0', method: 'x' })).toBe('jsonrpc is "1.0", not "2.0"')
    expect(jsonRpcFault({ jsonrpc: '2.0', method: 'x', extra: 1 })).toBe('extra member "extra"')
    expect(jsonRpcFault({ jsonrpc: '2.0', id: null, method: 'x' })).toBe('id null is not a string or an integer')
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 1.5, result: {} })).toBe('id 1.5 is not a string or an integer')
    expect(jsonRpcFault({ jsonrpc: '2.0', method: 'x', params: 'p' })).toBe('x: params "p" is not an object or array')
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } })).toBe('response 1 needs exactly one of result and error')
    expect(jsonRpcFault({ jsonrpc: '2.0', id: 1, error: { code: 'E', message: 'm' } })).toBe('response 1: error is not { code: integer, message: string }')
    expect(jsonRpcFault({ jsonrpc: '2.0' })).toMatch(/neither a method nor an id/)
  })
})

describe('capabilities', () => {
  const chatgpt = resolvePreset('chatgpt')
  it('lets a view ask only for what the preset advertised', () => {
    expect(capabilityFault('tools/call', {}, chatgpt.capabilities, chatgpt.availableDisplayModes)).toBeUndefined()
    expect(capabilityFault('resources/read', {}, chatgpt.capabilities, chatgpt.availableDisplayModes)).toBe(
      'resources/read needs hostCapabilities.serverResources, which this host did not advertise',
    )
    expect(capabilityFault('ui/request-display-mode', { mode: 'pip' }, chatgpt.capabilities, chatgpt.availableDisplayModes)).toBeUndefined()
    const vscode = resolvePreset('vscode')
    expect(capabilityFault('ui/request-display-mode', { mode: 'fullscreen' }, vscode.capabilities, vscode.availableDisplayModes)).toMatch(/offers inline/)
    expect(capabilityFault('ui/made-up', {}, chatgpt.capabilities, chatgpt.availableDisplayModes)).toBe('ui/made-up is not a method MCP Apps hosts answer')
  })

  it('knows the four presets by their short names and refuses others, naming the option', () => {
    expect(resolvePreset('claude').id).toBe('claude-desktop')
    expect(['full', 'chatgpt', 'vscode'].map((p) => resolvePreset(p).id)).toEqual(['full', 'chatgpt', 'vscode'])
    expect(() => resolvePreset('safari')).toThrow(codedError('INVALID_OPTION', "preset 'safari' is not one of full, claude, chatgpt, vscode"))
  })

  it('refuses a stepTimeoutMs that is not a positive integer, naming the option, before starting anything', async () => {
    for (const stepTimeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 1.5]) {
      await expect(runCheck({ viewFile: '/nonexistent/view.html', stepTimeoutMs })).rejects.toThrow(
        codedError('INVALID_OPTION', `stepTimeoutMs must be a positive integer, got ${stepTimeoutMs}`),
      )
    }
  })

  it('refuses a judgement window that is not a positive integer, naming the option, before starting anything', async () => {
    for (const option of ['settleMs', 'themeSettleMs', 'forgeWaitMs', 'afterTeardownMs'] as const) {
      for (const value of [0, -1, Number.NaN, 2.5]) {
        await expect(runCheck({ viewFile: '/nonexistent/view.html', [option]: value })).rejects.toThrow(
          codedError('INVALID_OPTION', `${option} must be a positive integer, got ${value}`),
        )
      }
    }
  })
})

describe('command line', () => {
  it('reads a server check and a file check', () => {
    expect(parseCheckArgs(['--server', 'http://localhost:3001/mcp', '--tool', 't', '--args', '{"a":1}', '--preset', 'vscode', '--json'])).toEqual({
      json: true,
      server: { kind: 'http', url: 'http://localhost:3001/mcp' },
      tool: 't',
      args: { a: 1 },
      preset: 'vscode',
    })
    expect(parseCheckArgs(['view.html', '--shots', 'out'])).toEqual({ json: false, viewFile: 'view.html', shots: 'out' })
    expect(parseCheckArgs(['view.html', '--timeout', '2.5', '--step-timeout', '1', '--max-view-bytes', '1000', '--no-sandbox'])).toEqual({
      json: false,
      viewFile: 'view.html',
      timeoutMs: 2500,
      stepTimeoutMs: 1000,
      maxViewBytes: 1000,
      noSandbox: true,
    })
  })

  it('refuses what cannot be run, naming the flag', () => {
    expect(() => parseCheckArgs([])).toThrow(codedError('USAGE', /give a server/))
    expect(() => parseCheckArgs(['--server', 'http://x/mcp'])).toThrow(codedError('USAGE', '--tool NAME: which app tool to call'))
    expect(() => parseCheckArgs(['--stdio', 'node s.js', '--tool', 't', '--args', '[1]'])).toThrow(codedError('USAGE', '--args [1]: must be a JSON object'))
    expect(() => parseCheckArgs(['--stdio', 'node s.js', '--tool', 't', '--args', '{x'])).toThrow(codedError('USAGE', /^--args \{x: not JSON/))
    expect(() => parseCheckArgs(['v.html', '--tool', 't'])).toThrow(codedError('USAGE', '--tool and --args need a server (--server or --stdio)'))
    expect(() => parseCheckArgs(['v.html', '--frobnicate'])).toThrow(codedError('USAGE', /^Unknown option '--frobnicate'.*; see duet check --help$/))
    expect(() => parseCheckArgs(['v.html', '--timeout', '0'])).toThrow(codedError('USAGE', '--timeout 0: give seconds, a number above 0 and at most 86400'))
    expect(() => parseCheckArgs(['v.html', '--step-timeout', '-1'])).toThrow(codedError('USAGE', /^Option '--step-timeout' argument is ambiguous/))
    expect(() => parseCheckArgs(['v.html', '--max-view-bytes', '5MB'])).toThrow(
      codedError('USAGE', '--max-view-bytes 5MB: give a whole number of bytes above 0'),
    )
    expect(() => parseCheckArgs(['--server', 'http://x/mcp', '--stdio', 'node s.js', '--tool', 't'])).toThrow(
      codedError('USAGE', /--server and --stdio given together/),
    )
    expect(() => parseCheckArgs(['--server', 'nope', '--tool', 't'])).toThrow(codedError('USAGE', /^--server nope: not a URL/))
    expect(() => parseCheckArgs(['--server', 'ftp://x/mcp', '--tool', 't'])).toThrow(codedError('USAGE', /^--server ftp:\/\/x\/mcp: only http and https/))
  })
})

describe('a missing browser', () => {
  it('says to install playwright-core when the package cannot be found', () => {
    // A real failed import, in plain Node (vitest's resolver would find the workspace's copy): a
    // module outside any node_modules that imports playwright-core, loaded through the built check.
    const dir = mkdtempSync(join(tmpdir(), 'duet-no-playwright-'))
    try {
      const file = join(dir, 'load.mjs')
      writeFileSync(file, "export * from 'playwright-core'\n")
      const browser = pathToFileURL(fileURLToPath(new URL('../../dist/check/browser.js', import.meta.url))).href
      const script = `import { importPlaywright } from '${browser}'
importPlaywright(() => import('${pathToFileURL(file).href}')).catch((e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
      expect(JSON.parse(out)).toEqual({
        code: 'BROWSER_UNAVAILABLE',
        message: 'duet check needs the package playwright-core, which is not installed: run `npm install --save-dev playwright-core` in your project.',
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says where it looked for Chromium and how to install it', () => {
    expect(() => chromiumPath(undefined, { CHROMIUM_PATH: '/nowhere/chromium' })).toThrow(
      codedError(
        'BROWSER_UNAVAILABLE',
        'duet check needs Chromium and found none at /nowhere/chromium (from CHROMIUM_PATH): install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its executable.',
      ),
    )
    expect(() => chromiumPath('/opt/none', {})).toThrow(codedError('BROWSER_UNAVAILABLE', /found none at \/opt\/none \(from --chromium\)/))
  })
})

const up = (message: object): RecordedMessage => ({ dir: 'view->host', at: 0, message: { jsonrpc: '2.0', ...message } })
const down = (message: object): RecordedMessage => ({ dir: 'host->view', at: 0, message: { jsonrpc: '2.0', ...message } })

describe('lifecycle MUSTs, judged from the message order', () => {
  const init = up({ id: 1, method: 'ui/initialize', params: {} })
  const answer = down({ id: 1, result: {} })
  const initialized = up({ method: 'ui/notifications/initialized' })
  it('passes the handshake in order and names what came early', () => {
    expect(handshakeOrder([init, answer, initialized])[0]).toBe(true)
    expect(handshakeOrder([init, up({ id: 2, method: 'ping' }), answer, initialized])[0]).toBe(true)
    expect(handshakeOrder([init, up({ id: 2, method: 'tools/call' }), answer])).toEqual([false, 'tools/call sent before ui/initialize was answered'])
    expect(handshakeOrder([init, initialized, answer])).toEqual([false, 'ui/notifications/initialized sent before ui/initialize was answered'])
  })
  it('names a reused request id', () => {
    expect(uniqueIds([init, answer, up({ id: 2, method: 'ping' })])[0]).toBe(true)
    expect(uniqueIds([init, answer, up({ id: 1, method: 'tools/call' })])).toEqual([false, 'request id 1 used twice (the second time by tools/call)'])
  })
  it('judges the ping answer', () => {
    expect(pingAnswered({ result: {} }, 3000)).toEqual([true, 'answered {}'])
    expect(pingAnswered('skipped', 3000)[0]).toBe(true)
    expect(pingAnswered('timeout', 3000)).toEqual([false, 'ping got no answer in 3000 ms'])
    expect(pingAnswered({ error: { code: -32601, message: 'no' } }, 3000)).toEqual([false, 'ping answered with an error: -32601 no'])
  })
  it('names a message after the teardown answer', () => {
    const teardown = [down({ id: 5, method: 'ui/resource-teardown', params: {} }), up({ id: 5, result: {} })]
    expect(quietAfterTeardown([init, answer, ...teardown])[0]).toBe(true)
    expect(quietAfterTeardown([init, answer, ...teardown, up({ method: 'ui/notifications/size-changed' })])).toEqual([
      false,
      '1 message after the teardown answer, first ui/notifications/size-changed',
    ])
  })
})

describe('server metadata (MCPJam-style conformance)', () => {
  const tool = (name: string, meta: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' as const }, _meta: meta })
  it('checks resourceUri, visibility, MIME type, CSP and permissions shapes', () => {
    expect(resourceUris([tool('a', { ui: { resourceUri: 'ui://a/v.html' }, 'ui/resourceUri': 'ui://a/v.html' })])[0]).toBe(true)
    expect(resourceUris([tool('a', { ui: { resourceUri: 'https://a/v.html' } })])).toEqual([
      false,
      'tool a: _meta.ui.resourceUri is "https://a/v.html", not a ui:// URI',
    ])
    expect(resourceUris([tool('a', { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' })])[1]).toMatch(/differ/)
    expect(visibilities([tool('a', { ui: { visibility: ['app'] } })])).toEqual([true, '1 app-only tool (hidden from the model, callable by views)'])
    expect(visibilities([tool('a', { ui: { visibility: ['user'] } })])[0]).toBe(false)
    expect(visibilities([tool('a', { ui: { visibility: [] } })])[0]).toBe(false)
    expect(mimeType({ mimeType: 'text/html;profile=mcp-app' })[0]).toBe(true)
    expect(mimeType({ mimeType: 'text/html' })).toEqual([false, 'the resource\'s mimeType is "text/html", not text/html;profile=mcp-app'])
    expect(securityMeta({ _meta: { ui: { csp: { connectDomains: ['https://api.x'] }, permissions: { camera: {} } } } })).toEqual([true, 'well-formed'])
    expect(securityMeta({ _meta: { ui: { csp: { scriptDomains: [] } } } })[1]).toMatch(/csp.scriptDomains is not one of/)
    expect(securityMeta({ _meta: { ui: { permissions: { camera: true } } } })).toEqual([false, '_meta.ui.permissions.camera is true, not an object ({})'])
  })
})

describe('deadlines and the sandbox', () => {
  it('names the step and what it waited for when a step or the run passes its deadline', async () => {
    const never = () => new Promise<never>(() => {})
    await expect(new Steps({ totalMs: 5000, stepMs: 20 }).run('tools/call', 'the answer', never)).rejects.toThrow(
      new StepFailed('tools/call', 'step "tools/call": waited 20 ms for the answer, in vain', 'target'),
    )
    await expect(new Steps({ totalMs: 20, stepMs: 5000 }).run('mount', 'the page', never)).rejects.toThrow(
      /the whole run's deadline \(20 ms\) passed during step "mount", waiting for the page/,
    )
  })
  it("turns Chromium's sandbox off only as root or when asked, and says so", () => {
    expect(sandboxFlags(false, 1000)).toEqual({ args: [] })
    expect(sandboxFlags(false, 0).args).toEqual(['--no-sandbox'])
    expect(sandboxFlags(false, 0).note).toMatch(/running as root/)
    expect(sandboxFlags(true, 1000).note).toMatch(/--no-sandbox/)
  })
})
