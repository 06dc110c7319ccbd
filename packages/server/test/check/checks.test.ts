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
import { chromiumPath } from '../../src/check/browser.js'
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

  it('refuses an initTimeoutMs that is not a positive number, naming the option, before starting anything', async () => {
    for (const initTimeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(runCheck({ viewFile: '/nonexistent/view.html', initTimeoutMs })).rejects.toThrow(
        codedError('INVALID_OPTION', 'initTimeoutMs must be a positive number of milliseconds'),
      )
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
  })

  it('refuses what cannot be run, naming the flag', () => {
    expect(() => parseCheckArgs([])).toThrow(codedError('USAGE', /give a server/))
    expect(() => parseCheckArgs(['--server', 'http://x/mcp'])).toThrow(codedError('USAGE', '--tool NAME: which app tool to call'))
    expect(() => parseCheckArgs(['--stdio', 'node s.js', '--tool', 't', '--args', '[1]'])).toThrow(codedError('USAGE', '--args [1]: must be a JSON object'))
    expect(() => parseCheckArgs(['--stdio', 'node s.js', '--tool', 't', '--args', '{x'])).toThrow(codedError('USAGE', /^--args \{x: not JSON/))
    expect(() => parseCheckArgs(['v.html', '--tool', 't'])).toThrow(codedError('USAGE', '--tool and --args need a server (--server or --stdio)'))
    expect(() => parseCheckArgs(['v.html', '--frobnicate'])).toThrow(codedError('USAGE', 'unknown option --frobnicate; see duet check --help'))
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
