import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { fileViolations, importViolations, moduleSpecifiers, packageOf, sourceFiles, type RoomRules } from '../../../../test/support/import-rooms.js'

// The rooms of duetkit/src and the rooms each may import; the README's Architecture section draws
// the same order (docs/architecture.md). protocol ← runtime ← jsx ← dom, runtime ← mcp; testing may use all of them;
// build stands alone but for protocol, which every room may use; src/index.ts composes.
const ROOMS: RoomRules['rooms'] = {
  protocol: [],
  runtime: ['protocol'],
  jsx: ['runtime', 'protocol'],
  dom: ['jsx', 'runtime', 'protocol'],
  mcp: ['runtime', 'protocol'],
  testing: ['dom', 'jsx', 'mcp', 'runtime', 'protocol'],
  build: ['protocol'],
  '.': [],
}

// A view installs duetkit and gets these two and nothing else.
const PACKAGES = ['xstream', 'snabbdom']

const packageDir = fileURLToPath(new URL('../../', import.meta.url))

const rules: RoomRules = {
  packageDir,
  rooms: ROOMS,
  checkPackage(specifier, room) {
    if (room === 'protocol') return 'protocol/ imports nothing: both sides load it'
    if (specifier.startsWith('node:')) return 'duetkit runs in the browser; no Node built-ins'
    return PACKAGES.includes(packageOf(specifier)) ? undefined : `duetkit depends on ${PACKAGES.join(' and ')} only`
  },
}

describe('duetkit/src imports one way', () => {
  it('has no import against the room order, no package but xstream and snabbdom, and nothing imported into protocol/', () => {
    expect(importViolations(rules)).toEqual([])
  })

  it('reads every kind of import: static, type-only, export-from, dynamic, require, import types; not imports inside strings', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from 'b'",
      "export { c } from '../c.js'",
      "export * from '@s/d/sub'",
      "const e = await import('./e.js')",
      "const f = require('f')",
      "let g: import('./g.js').G",
      "const recipe = `import { run } from 'not-an-import'`",
    ].join('\n')
    expect(moduleSpecifiers('x.ts', text)).toEqual([
      { specifier: './a.js', line: 1 },
      { specifier: 'b', line: 2 },
      { specifier: '../c.js', line: 3 },
      { specifier: '@s/d/sub', line: 4 },
      { specifier: './e.js', line: 5 },
      { specifier: 'f', line: 6 },
      { specifier: './g.js', line: 7 },
    ])
    expect(packageOf('@s/d/sub')).toBe('@s/d')
    expect(packageOf('snabbdom/build/init.js')).toBe('snabbdom')
  })

  it('names the file, the line and the import when a room imports against the order', () => {
    const src = join(packageDir, 'src')
    const check = (file: string, text: string) => fileViolations(rules, join(src, file), text)
    expect(check('runtime/core.ts', "import x from 'y'\nimport { createDomSource } from '../dom/source.js'")).toEqual([
      "src/runtime/core.ts:1 imports 'y': duetkit depends on xstream and snabbdom only",
      "src/runtime/core.ts:2 imports '../dom/source.js': runtime/ may import protocol/, not dom/",
    ])
    expect(check('mcp/driver.ts', "import type { VNode } from '../jsx/jsx-runtime.js'")).toEqual([
      "src/mcp/driver.ts:1 imports '../jsx/jsx-runtime.js': mcp/ may import runtime/, protocol/, not jsx/",
    ])
    expect(check('protocol/channel.ts', "import { Stream } from 'xstream'\nimport { isObject } from './json.js'")).toEqual([
      "src/protocol/channel.ts:1 imports 'xstream': protocol/ imports nothing: both sides load it",
    ])
    expect(check('dom/run.ts', "import { run } from '../index.js'")).toEqual([
      "src/dom/run.ts:1 imports '../index.js': dom/ imports the entry module; entries compose rooms, rooms never import them",
    ])
    expect(check('build/vite-plugin.ts', "import type { Plugin } from 'vite'\nimport { readFile } from 'node:fs'")).toEqual([
      "src/build/vite-plugin.ts:1 imports 'vite': duetkit depends on xstream and snabbdom only",
      "src/build/vite-plugin.ts:2 imports 'node:fs': duetkit runs in the browser; no Node built-ins",
    ])
    expect(check('extra/thing.ts', '')).toEqual(['src/extra/thing.ts: room extra/ is not in the room order; add it to the test with the rooms it may import'])
    expect(check('index.ts', "export { run } from './dom/run.js'\nexport { x } from '../../server/src/index.js'")).toEqual([
      "src/index.ts:2 imports '../../server/src/index.js': reaches outside src/ by a relative path",
    ])
  })
})

// docs/architecture.md: duetkit's streams are its own (runtime/stream.ts) and so is its DOM patcher
// (dom/patch.ts); of xstream and snabbdom it takes only the types, so a view bundles none of their code.
/** The lines of `text` that load `pkg` at run time: any import or export but `import type`/`export type`, `import()`, `require()`. */
function valueImportLines(pkg: string, fileName: string, text: string): number[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const lines: number[] = []
  const names = (lit: ts.Node | undefined) => !!lit && ts.isStringLiteralLike(lit) && packageOf(lit.text) === pkg
  // Only `import type` is dropped from the output: under verbatimModuleSyntax `import { type T }` stays
  // as `import {} from 'xstream'`, which still loads (and bundles) the module.
  const typesOnly = (clause: ts.ImportClause | undefined) => !!clause?.isTypeOnly
  const visit = (node: ts.Node): void => {
    const value =
      (ts.isImportDeclaration(node) && names(node.moduleSpecifier) && !typesOnly(node.importClause)) ||
      (ts.isExportDeclaration(node) && names(node.moduleSpecifier) && !node.isTypeOnly) ||
      (ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
        names(node.arguments[0]))
    if (value) lines.push(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return lines
}

describe("duetkit/src takes only xstream's and snabbdom's types", () => {
  for (const pkg of ['xstream', 'snabbdom']) {
    it(`no file in src/ loads ${pkg} as a value`, () => {
      const src = join(packageDir, 'src')
      const found = sourceFiles(src).flatMap((file) =>
        valueImportLines(pkg, file, readFileSync(file, 'utf8')).map((line) => `src/${relative(src, file)}:${line}`),
      )
      expect(found).toEqual([])
    })
  }

  it('tells a value import of xstream from a type-only one', () => {
    const text = [
      "import type { Stream } from 'xstream'",
      "import { type MemoryStream } from 'xstream'",
      "import xs from 'xstream'",
      "import { type Stream as S, Producer } from 'xstream'",
      "export { default } from 'xstream/extra/dropRepeats'",
      "export type { Listener } from 'xstream'",
      "const x = await import('xstream')",
      "let t: import('xstream').Stream<number>",
    ].join('\n')
    expect(valueImportLines('xstream', 'x.ts', text)).toEqual([2, 3, 4, 5, 7])
  })
})
