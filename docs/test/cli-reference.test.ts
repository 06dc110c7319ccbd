// docs/reference/cli.md stays complete: every flag (and environment variable) a built command's --help
// prints is in that command's section, and a section names no flag its command does not know.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { builtDuetCli } from '../../test/support/built.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const CLI_MD = join(root, 'docs/reference/cli.md')
const CREATE = join(root, 'packages/create-duet-app/bin.js')

/** Each command: the heading of its section in cli.md, and the arguments that make it print its help. */
const COMMANDS = [
  { heading: 'duet serve', bin: 'duet', args: ['serve', '--help'] },
  { heading: 'duet dev', bin: 'duet', args: ['dev', '--help'] },
  { heading: 'duet check', bin: 'duet', args: ['check', '--help'] },
  { heading: 'duet wait', bin: 'duet', args: ['wait', '--help'] },
  { heading: 'duet notify', bin: 'duet', args: ['notify', '--help'] },
  { heading: 'create-duet-app', bin: 'create', args: ['--help'] },
] as const

const printed = new Map<string, string>()
/** What the built command prints for `args` (each run once). */
function help(bin: 'duet' | 'create', args: readonly string[]): string {
  const key = `${bin} ${args.join(' ')}`
  let text = printed.get(key)
  if (text === undefined) {
    const entry = bin === 'duet' ? builtDuetCli() : CREATE
    text = execFileSync(process.execPath, [entry, ...args], { encoding: 'utf8', timeout: 20_000 })
    printed.set(key, text)
  }
  return text
}

/** The long flags a text names (`--max-in-flight`), each once, sorted. */
function flagsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((m) => m[0]))].sort()
}

/** The environment variables a text names: `$SOME_NAME` (a `$CH` in an example is a shell variable), or a bare `DUET_…`. */
function envVarsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\$([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])|\b(DUET_[A-Z0-9_]+)/g)].map((m) => m[1] ?? m[2]))].sort()
}

/** cli.md's `## <heading>` sections, by heading (the text up to the next `## `). */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of markdown.split(/^## /m).slice(1)) {
    const newline = part.indexOf('\n')
    out.set(part.slice(0, newline).replace(/`/g, '').trim(), part.slice(newline + 1))
  }
  return out
}

describe('docs/reference/cli.md against the built commands', () => {
  const markdown = readFileSync(CLI_MD, 'utf8')
  const bySection = sections(markdown)

  it('the extractors find flags and variables (the check is not vacuous)', () => {
    expect(flagsIn('  --port N  (default 3001); --max-in-flight-per-subject N, x--y, `--json`, a — b')).toEqual([
      '--json',
      '--max-in-flight-per-subject',
      '--port',
    ])
    expect(envVarsIn('default $DUET_DATA_DIR, else DUET_SUBJECT; ($OPENAI_API_KEY) BURST:PER_SECOND $5 "$CH"')).toEqual([
      'DUET_DATA_DIR',
      'DUET_SUBJECT',
      'OPENAI_API_KEY',
    ])
    expect(existsSync(CREATE), `${CREATE} exists`).toBe(true)
  })

  for (const { heading, bin, args } of COMMANDS) {
    describe(heading, () => {
      it(`has a "## ${heading}" section`, () => {
        expect([...bySection.keys()]).toContain(heading)
      })

      it('documents every flag and environment variable its --help prints', () => {
        const text = help(bin, args)
        const section = bySection.get(heading) ?? ''
        const flags = flagsIn(text)
        expect(flags.length, `${heading} --help names flags`).toBeGreaterThan(0)
        expect(
          flags.filter((f) => !flagsIn(section).includes(f)),
          `flags of ${heading} missing from its section`,
        ).toEqual([])
        expect(
          envVarsIn(text).filter((v) => !envVarsIn(section).includes(v)),
          `variables of ${heading} missing from its section`,
        ).toEqual([])
      })

      it('names no flag its --help does not know', () => {
        const known = flagsIn(help(bin, args))
        expect(flagsIn(bySection.get(heading) ?? '').filter((f) => !known.includes(f))).toEqual([])
      })
    })
  }

  it('outside the command sections, names only flags some command knows', () => {
    const known = new Set([...COMMANDS.flatMap(({ bin, args }) => flagsIn(help(bin, args))), ...flagsIn(help('duet', ['--help']))])
    const rest = markdown.split(/^## /m)[0] ?? ''
    const sectionsNotCommands = [...bySection].filter(([h]) => !COMMANDS.some((c) => c.heading === h)).map(([, body]) => body)
    expect(flagsIn([rest, ...sectionsNotCommands].join('\n')).filter((f) => !known.has(f))).toEqual([])
  })
})
