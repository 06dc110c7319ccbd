import { readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The declarations every entry point of the package publishes, emitted here from the sources with the
// package's own build settings (so the check never reads a stale dist/), then followed through their
// relative imports to every declaration file a user's compiler reads.
const root = fileURLToPath(new URL('../..', import.meta.url))
const OUT = join(root, 'dist')

function emitDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  if (!config) throw new Error('tsconfig.build.json could not be read')
  const options = { ...config.options, emitDeclarationOnly: true, declarationMap: false, sourceMap: false, noEmit: false }
  const program = ts.createProgram(config.fileNames, options)
  const files = new Map<string, string>()
  const result = program.emit(undefined, (name, text) => files.set(name, text), undefined, true)
  const errors = result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  if (errors.length) throw new Error(`declaration emit failed: ${errors.join('; ')}`)
  return files
}

function entryDeclarations(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'object' ? target.types : undefined))
    .filter((types): types is string => types !== undefined)
    .map((types) => join(root, types))
}

// Relative module names a declaration file imports, re-exports or augments.
function relativeImports(text: string): string[] {
  const source = ts.createSourceFile('x.d.ts', text, ts.ScriptTarget.Latest, false)
  const out: string[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push(node.moduleSpecifier.text)
    if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) out.push(node.name.text)
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push(node.argument.literal.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out.filter((name) => name.startsWith('.'))
}

function reachable(files: Map<string, string>): string[] {
  const seen = new Set<string>()
  const queue = entryDeclarations()
  while (queue.length) {
    const file = queue.shift()
    if (file === undefined || seen.has(file)) continue
    const text = files.get(file)
    if (text === undefined) throw new Error(`${file} is named by the package but was not emitted`)
    seen.add(file)
    for (const name of relativeImports(text)) queue.push(posix.join(dirname(file), name.replace(/\.js$/, '.d.ts')))
  }
  return [...seen].sort()
}

/** Where `any` is used as a type: its keyword token, never a word in a comment or a string. */
function anyTokens(text: string): number[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text)
  const source = ts.createSourceFile('x.d.ts', text, ts.ScriptTarget.Latest)
  const lines: number[] = []
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.AnyKeyword) lines.push(source.getLineAndCharacterOfPosition(scanner.getTokenStart()).line + 1)
  }
  return lines
}

describe('public declarations', () => {
  const files = emitDeclarations()
  const published = reachable(files)

  it('cover every entry point of package.json and what they import', () => {
    expect(published).toEqual(expect.arrayContaining(entryDeclarations()))
    expect(published.length).toBeGreaterThan(entryDeclarations().length)
  })

  it('use `any` as a type nowhere (0 occurrences)', () => {
    const found = published.flatMap((file) => anyTokens(files.get(file) ?? '').map((line) => `${file.slice(OUT.length + 1)}:${line}`))
    expect(found).toEqual([])
  })

  it('count `any` only as a type token, not in comments or strings', () => {
    expect(anyTokens('/** any */ type A = "any"; // any\ntype B = any')).toEqual([2])
  })
})
