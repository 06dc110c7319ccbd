import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/**
 * The import-direction check behind each package's architecture test. A package's `src/` is split
 * into rooms (its top-level folders; the files directly in `src/` are the entry room `.`), and each
 * room names the rooms it may import. Imports are read from the syntax tree, not by regex, so an
 * import written inside a recipe's template string is text, not an import.
 */

/** One module specifier in a source file. */
export interface ModuleRef {
  specifier: string
  line: number
}

/**
 * Every module specifier in a TypeScript source: `import` and `export … from` (type-only too),
 * `import()` and `require()` with a literal argument, `import('x').T` types, `declare module 'x'`.
 */
export function moduleSpecifiers(fileName: string, text: string): ModuleRef[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const out: ModuleRef[] = []
  const add = (node: ts.Node, lit: ts.Node | undefined) => {
    if (lit && ts.isStringLiteralLike(lit)) out.push({ specifier: lit.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression)
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      add(node, node.arguments[0])
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal)
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) add(node, node.name)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** The package a bare specifier names: `snabbdom/build/init.js` → `snabbdom`, `@scope/a/b` → `@scope/a`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

export interface RoomRules {
  /** The package folder; its `src/` is checked. */
  packageDir: string
  /** Each room and the other rooms it may import. A folder of `src/` missing here is itself a violation. */
  rooms: Record<string, readonly string[]>
  /** Why `file` (its path in `src/`, with `/`) of `room` may not import the bare `specifier`; undefined when it may. */
  checkPackage(specifier: string, room: string, file: string): string | undefined
}

const ENTRY = '.'

/** The room of a path inside `src/`: its first folder, or `.` for a file directly in `src/`. */
export function roomOf(src: string, file: string): string {
  const rel = relative(src, file).split(sep)
  return rel.length === 1 ? ENTRY : rel[0]
}

/** Every `.ts`/`.tsx` file under `dir`, `.d.ts` included. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(p)
    return /\.tsx?$/.test(e.name) ? [p] : []
  })
}

/** What one file's imports break, as `src/<file>:<line> imports '<specifier>': <why>`. */
export function fileViolations(rules: RoomRules, file: string, text: string): string[] {
  const src = join(rules.packageDir, 'src')
  const room = roomOf(src, file)
  const where = relative(rules.packageDir, file).split(sep).join('/')
  const inSrc = relative(src, file).split(sep).join('/')
  if (!(room in rules.rooms)) return [`${where}: room ${room}/ is not in the room order; add it to the test with the rooms it may import`]
  const allowed = rules.rooms[room]
  const out: string[] = []
  for (const { specifier, line } of moduleSpecifiers(file, text)) {
    const say = (why: string) => out.push(`${where}:${line} imports '${specifier}': ${why}`)
    if (!specifier.startsWith('.')) {
      const why = rules.checkPackage(specifier, room, inSrc)
      if (why) say(why)
      continue
    }
    const target = resolve(dirname(file), specifier)
    if (relative(src, target).startsWith('..')) {
      say(`reaches outside ${relative(rules.packageDir, src)}/ by a relative path`)
      continue
    }
    const to = roomOf(src, target)
    if (to === room || room === ENTRY) continue
    if (to === ENTRY) say(`${room}/ imports the entry module; entries compose rooms, rooms never import them`)
    else if (!allowed.includes(to)) say(`${room}/ may import ${allowed.length ? allowed.map((r) => `${r}/`).join(', ') : 'no other room'}, not ${to}/`)
  }
  return out
}

/** Every violation in the package's `src/`. */
export function importViolations(rules: RoomRules): string[] {
  return sourceFiles(join(rules.packageDir, 'src')).flatMap((file) => fileViolations(rules, file, readFileSync(file, 'utf8')))
}
