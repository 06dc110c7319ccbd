import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main, parseArgs } from '../src/cli.js'
import { checkProjectName } from '../src/project-name.js'
import { runToEnd } from '../../../test/support/run-to-end.ts'

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url))

let cwd
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'create-duet-app-'))
})
afterEach(() => rmSync(cwd, { recursive: true, force: true }))

/** Runs bin.js as a process with no terminal: stdin is an empty pipe. */
function runBin(args, env = {}, at = cwd) {
  return runToEnd(process.execPath, [BIN, ...args], { cwd: at, env: { ...process.env, ...env }, stdin: '' })
}

/** main() with in-memory streams; `answers` are typed lines, then the input ends. */
async function runMain(args, { answers, interactive = answers !== undefined } = {}) {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (c) => {
    out += c
  })
  stderr.on('data', (c) => {
    err += c
  })
  if (answers) stdin.end(answers.map((a) => `${a}\n`).join(''))
  const code = await main(args, { stdin, stdout, stderr, interactive, cwd })
  return { code, stdout: out, stderr: err }
}

describe('project names', () => {
  it('accepts npm package names and puts the project in a child folder', () => {
    expect(checkProjectName('my-tool', '/w')).toEqual({ name: 'my-tool', dir: '/w/my-tool', path: false })
    expect(checkProjectName('@acme/weather.app', '/w')).toEqual({ name: '@acme/weather.app', dir: '/w/weather.app', path: false })
  })

  it('takes a path, absolute or relative, as the folder, and its last part as the package name', () => {
    expect(checkProjectName('/home/me/apps/my-tool', '/w')).toEqual({ name: 'my-tool', dir: '/home/me/apps/my-tool', path: true })
    expect(checkProjectName('../my-tool', '/w/sub')).toEqual({ name: 'my-tool', dir: '/w/my-tool', path: true })
    expect(checkProjectName('apps/my-tool/', '/w')).toEqual({ name: 'my-tool', dir: '/w/apps/my-tool', path: true })
    expect(checkProjectName('.', '/w/my-tool')).toEqual({ name: 'my-tool', dir: '/w/my-tool', path: true })
  })

  it('refuses a path whose last part is not an npm name, naming the path and the part', () => {
    expect(() => checkProjectName('/tmp/My Tool', '/w')).toThrow(
      'Invalid project name "My Tool" (the last part of the path "/tmp/My Tool"): npm package names are lowercase. The folder name is the npm package name: give a path ending in one.',
    )
    expect(() => checkProjectName('../_tool', '/w/x')).toThrow(
      /"_tool" \(the last part of the path "\.\.\/_tool"\): it cannot start with a dot or an underscore/,
    )
    expect(() => checkProjectName('/', '/w')).toThrow(/the last part of the path "\/"\): it is empty/)
  })

  it.each([
    ['', /empty/],
    ['My-Tool', /lowercase/],
    ['.hidden', /dot/],
    ['_private', /underscore/],
    ['has space', /letters, digits/],
    ['ünicode', /letters, digits/],
    ['node_modules', /reserved/],
    ['http', /core module/],
    ['x'.repeat(215), /214/],
  ])('rejects %j with a reason', (name, reason) => {
    expect(() => checkProjectName(name, '/w')).toThrow(reason)
    try {
      checkProjectName(name, '/w')
    } catch (err) {
      expect(err.code).toBe('INVALID_NAME')
    }
  })
})

describe('the command line', () => {
  it('parses names, templates, languages and --no-install', () => {
    expect(parseArgs(['my-tool', '--template', 'mcp-app', '--ts', '--no-install'])).toEqual({
      name: 'my-tool',
      template: 'mcp-app',
      language: 'ts',
      install: false,
      help: false,
    })
    expect(parseArgs(['-t', 'mcp-app', 'x'])).toMatchObject({ name: 'x', template: 'mcp-app', install: true })
    expect(parseArgs(['--template=mcp-app', '--js'])).toMatchObject({ template: 'mcp-app', language: 'js' })
    expect(() => parseArgs(['--ts', '--js'])).toThrow(/not both/)
    expect(() => parseArgs(['a', 'b'])).toThrow(/one project name only/)
    expect(() => parseArgs(['--template'])).toThrow(/needs a template name/)
    expect(() => parseArgs(['--force'])).toThrow(/unknown option --force/)
  })

  it('without a terminal, stops with the usage when the name or template is missing, and writes nothing', async () => {
    for (const args of [[], ['my-tool'], ['--template', 'mcp-app']]) {
      const { code, stderr } = await runBin(args)
      expect(code).toBe(2)
      expect(stderr).toMatch(/missing .*\(no terminal to ask on\)/)
      expect(stderr).toContain('Usage: create-duet-app <name | path> --template <template>')
    }
    expect(readdirSync(cwd)).toEqual([])
  })

  it('rejects a bad name, an unknown template and a non-empty folder before writing anything', async () => {
    expect(await runBin(['../Up', '--template', 'mcp-app'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/"Up" \(the last part of the path "\.\.\/Up"\): npm package names are lowercase/),
    })
    expect(await runBin(['ok', '--template', 'nope'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/Unknown template 'nope'\. Templates: mcp-app/) })
    mkdirSync(join(cwd, 'taken'))
    writeFileSync(join(cwd, 'taken', 'notes.txt'), 'mine')
    const taken = await runBin(['taken', '--template', 'mcp-app', '--no-install'])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toMatch(/taken is not empty \(notes\.txt\)\. Nothing was written/)
    expect(readdirSync(join(cwd, 'taken'))).toEqual(['notes.txt'])
    expect(readFileSync(join(cwd, 'taken', 'notes.txt'), 'utf8')).toBe('mine')
    expect(readdirSync(cwd).sort()).toEqual(['taken'])
  })

  it('refuses a bare name inside the Duet checkout, saying to give a path, and writes nothing there', async () => {
    const checkout = fileURLToPath(new URL('../../../', import.meta.url))
    const name = `trip-${process.pid}`
    const { code, stderr } = await runBin([name, '--template', 'mcp-app', '--no-install'], {}, checkout)
    expect(code).toBe(1)
    expect(stderr).toContain(`${join(checkout, name)} is inside the Duet checkout (${checkout.replace(/\/$/, '')})`)
    expect(stderr).toContain(`Give a path outside it, e.g. ../${name}`)
    expect(existsSync(join(checkout, name))).toBe(false)
  })

  it('creates the project at an absolute path, named after its last part', { timeout: 300_000 }, async () => {
    const target = join(cwd, 'nested', 'abs-tool')
    const elsewhere = mkdtempSync(join(tmpdir(), 'create-duet-app-elsewhere-'))
    try {
      const { code, stdout, stderr } = await runBin([target, '--template', 'mcp-app', '--no-install'], {}, elsewhere)
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain(`Created abs-tool (mcp-app, JavaScript) in ${target}`)
      expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).name).toBe('abs-tool')
      expect(readdirSync(elsewhere)).toEqual([])
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it("takes back what it wrote when this checkout's packages cannot be built or packed", async () => {
    mkdirSync(join(cwd, 'was-empty'))
    // No npm on the PATH: packing (or building) duetkit fails after the template's files are written.
    for (const name of ['fresh', 'was-empty']) {
      const { code, stderr } = await runBin([name, '--template', 'mcp-app', '--no-install'], { PATH: '/nonexistent' })
      expect(code).toBe(1)
      expect(stderr).toMatch(/(Packing|Building) (duetkit|@duetkit\/server) failed[\s\S]*could not start npm/)
    }
    expect(readdirSync(cwd)).toEqual(['was-empty'])
    expect(readdirSync(join(cwd, 'was-empty'))).toEqual([])
  })

  it('prints its help', async () => {
    const { code, stdout } = await runBin(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('--no-install')
  })
})

describe('in a terminal', () => {
  it('asks for what is missing, asking again after a bad answer', async () => {
    mkdirSync(join(cwd, 'taken'))
    writeFileSync(join(cwd, 'taken', 'x'), '')
    const { code, stdout } = await runMain(['--no-install'], { answers: ['Bad Name', 'taken', 'weather', '', 'maybe', 'y'] })
    expect(code).toBe(0)
    expect(stdout).toContain('Project name (my-tool): ')
    expect(stdout).toMatch(/Invalid project name "Bad Name": npm package names are lowercase/)
    expect(stdout).toMatch(/taken is not empty/)
    expect(stdout).toContain('Template: mcp-app (mcp-app): ')
    expect(stdout).toContain('Answer y or n.')
    expect(stdout).toContain('Created weather (mcp-app, TypeScript)')
    expect(existsSync(join(cwd, 'weather', 'src', 'App.tsx'))).toBe(true)
    expect(JSON.parse(readFileSync(join(cwd, 'weather', 'package.json'), 'utf8')).name).toBe('weather')
    expect(existsSync(join(cwd, 'weather', 'node_modules'))).toBe(false)
  })

  it('asks only for the language when name and template are given', async () => {
    const { code, stdout } = await runMain(['plain', '-t', 'mcp-app', '--no-install'], { answers: [''] })
    expect(code).toBe(0)
    expect(stdout).not.toContain('Project name')
    expect(stdout).toContain('Use TypeScript? y/n (n): ')
    expect(existsSync(join(cwd, 'plain', 'src', 'App.jsx'))).toBe(true)
  })

  // util-linux `script` gives the scaffolder a real pseudo-terminal, as when a person runs it.
  const hasScript = spawnSync('script', ['--version']).status === 0
  /** Runs bin.js in a pseudo-terminal, typing each answer once its prompt has appeared. */
  function runInTerminal(args, turns) {
    return new Promise((resolve, reject) => {
      const line = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ')
      const child = spawn('script', ['-qec', line, '/dev/null'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
      let output = ''
      let next = 0
      child.stdout.on('data', (chunk) => {
        output += chunk
        while (next < turns.length && output.includes(turns[next][0])) child.stdin.write(turns[next++][1])
      })
      child.once('error', reject)
      child.once('close', (code) => {
        child.stdin.destroy()
        resolve({ code, output: output.replace(/\r/g, '') })
      })
    })
  }

  it.skipIf(!hasScript)('asks in a real terminal', async () => {
    const { code, output } = await runInTerminal(
      ['--no-install'],
      [
        ['Project name (my-tool): ', 'in-a-tty\r'],
        ['Template: ', '\r'],
        ['TypeScript? ', 'y\r'],
      ],
    )
    expect(code, output).toBe(0)
    expect(output).toContain('Created in-a-tty (mcp-app, TypeScript)')
    expect(existsSync(join(cwd, 'in-a-tty', 'src', 'App.tsx'))).toBe(true)
  })

  it.skipIf(!hasScript)('stops on Ctrl-C in a real terminal, leaving nothing behind', async () => {
    const { code, output } = await runInTerminal(
      [],
      [
        ['Project name (my-tool): ', 'half\r'],
        ['Template: ', '\x03'],
      ],
    )
    expect(code, output).toBe(130)
    expect(output).toContain('Cancelled; nothing was written.')
    expect(readdirSync(cwd)).toEqual([])
  })

  it('stops when the input ends mid-way, leaving nothing behind', async () => {
    const { code, stderr } = await runMain([], { answers: ['half-done'] })
    expect(code).toBe(130)
    expect(stderr).toContain('Cancelled; nothing was written.')
    expect(readdirSync(cwd)).toEqual([])
  })
})
