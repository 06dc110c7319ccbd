import { describe, expect, it } from 'vitest'
import { splitCommandLine } from '../../src/dev/command-line.js'
import { parseDevArgs } from '../../src/dev/options.js'
import { codedError } from '../../../../test/support/coded-error.js'

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(splitCommandLine('node server.js --stdio')).toEqual({ command: 'node', args: ['server.js', '--stdio'] })
    expect(splitCommandLine(`node "my server.js" 'a b' c\\ d ""`)).toEqual({ command: 'node', args: ['my server.js', 'a b', 'c d', ''] })
    expect(splitCommandLine('  python3   -m   srv  ')).toEqual({ command: 'python3', args: ['-m', 'srv'] })
  })

  it('passes shell syntax through as plain words: nothing is expanded or chained', () => {
    expect(splitCommandLine('node s.js; rm -rf $HOME | cat > x')).toEqual({ command: 'node', args: ['s.js;', 'rm', '-rf', '$HOME', '|', 'cat', '>', 'x'] })
    expect(splitCommandLine('echo "$(whoami)"').args).toEqual(['$(whoami)'])
  })

  it('fails with USAGE on unbalanced quotes, a trailing backslash and an empty line', () => {
    expect(() => splitCommandLine('node "oops')).toThrow(codedError('USAGE', /unterminated " quote/))
    expect(() => splitCommandLine('node \\')).toThrow(/lone backslash/)
    expect(() => splitCommandLine('   ')).toThrow(/needs a command/)
  })
})

describe('parseDevArgs', () => {
  it('collects several servers of both kinds, the port and the poll interval', () => {
    const o = parseDevArgs([
      '--server',
      'http://localhost:3001/mcp',
      '--stdio',
      'node a.js --stdio',
      '--server',
      'https://x.dev/mcp',
      '--port',
      '6000',
      '--poll',
      '500',
    ])
    expect(o.servers).toEqual([
      { kind: 'http', url: 'http://localhost:3001/mcp' },
      { kind: 'stdio', line: 'node a.js --stdio', command: 'node', args: ['a.js', '--stdio'] },
      { kind: 'http', url: 'https://x.dev/mcp' },
    ])
    expect(o.port).toBe(6000)
    expect(o.pollMs).toBe(500)
  })

  it('rejects bad input with USAGE, naming the flag', () => {
    expect(() => parseDevArgs([])).toThrow(codedError('USAGE', /at least one --server/))
    expect(() => parseDevArgs(['--server'])).toThrow(/--server needs a value/)
    expect(() => parseDevArgs(['--server', 'localhost:3001'])).toThrow(/only http and https/)
    expect(() => parseDevArgs(['--server', 'not a url'])).toThrow(/not a URL/)
    expect(() => parseDevArgs(['--server', 'http://a/mcp', '--port', 'eighty'])).toThrow(/--port eighty/)
    expect(() => parseDevArgs(['--server', 'http://a/mcp', '--verbose'])).toThrow(codedError('USAGE', /^unknown option --verbose; see duet dev --help$/))
  })
})
