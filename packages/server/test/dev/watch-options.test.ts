import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startDevServer } from '../../src/dev/dev-server.js'
import { parseDevArgs } from '../../src/dev/options.js'
import { codedError } from '../../../../test/support/coded-error.js'

// A folder outside the checkout, so no node_modules above it holds a Vite.
const bare = mkdtempSync(join(tmpdir(), 'duet-watch-novite-'))
writeFileSync(join(bare, 'package.json'), '{"name":"no-vite","private":true}')
const servers = [{ kind: 'http' as const, url: 'http://127.0.0.1:9/mcp' }]

afterAll(() => rmSync(bare, { recursive: true, force: true }))

describe('duet dev --watch options', () => {
  it('takes one project folder', () => {
    expect(parseDevArgs(['--server', 'http://a/mcp', '--watch', '.']).watch).toBe('.')
    expect(parseDevArgs(['--server', 'http://a/mcp']).watch).toBeUndefined()
    expect(() => parseDevArgs(['--server', 'http://a/mcp', '--watch'])).toThrow(codedError('USAGE', /--watch needs a value/))
    expect(() => parseDevArgs(['--server', 'http://a/mcp', '--watch', '--port', '1'])).toThrow(codedError('USAGE', /--watch needs a project folder/))
    expect(() => parseDevArgs(['--server', 'http://a/mcp', '--watch', 'a', '--watch', 'b'])).toThrow(codedError('USAGE', /--watch is given twice/))
  })

  it('refuses a missing folder or one without Vite before opening any port, naming the option', async () => {
    await expect(startDevServer({ servers, port: 0, watch: join(bare, 'missing') })).rejects.toThrow(
      codedError('INVALID_OPTION', /options\.watch.*is not a folder/),
    )
    await expect(startDevServer({ servers, port: 0, watch: bare })).rejects.toThrow(codedError('INVALID_OPTION', /no vite installed/))
    await expect(startDevServer({ servers, port: 0, watch: '' })).rejects.toThrow(codedError('INVALID_OPTION', /options\.watch must be the path/))
    const e = await startDevServer({ servers, port: 0, watch: bare }).catch((err: unknown) => err)
    expect(e).toMatchObject({ data: { option: 'watch' } })
  })
})
