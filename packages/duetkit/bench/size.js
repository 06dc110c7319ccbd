// npm run bench:size — what each module costs a Duet view. Each view is built as its users build it
// (its vite.config.js: duet(), with its `omit`, and vite-plugin-singlefile), then, one module at a
// time, that module's code is taken out of the script and the rest minified with Vite's own minifier
// and gzipped: the bytes the view loses are what the module costs it. Gzip is not additive (a module
// compresses against the others), so the costs do not sum to the total; the difference is printed as
// what is shared. The instrument for issue 24's size goals (bench:mcp judges them): it says where a
// view's bytes go before anyone cuts. It also prints what the view's `duet({ omit })` saves, and what
// leaving out each other part would. Asserts nothing.
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { minifySync, parseSync } from 'vite'
import { OMITTABLE } from '../dist/build/index.js'
import { buildView } from './build-view.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const ALL_VIEWS = {
  minimal: here('./mcp/minimal-duet/'),
  forecast: here('../../../examples/forecast/'),
  reader: here('../../../examples/reader/'),
}
// BENCH_VIEWS=minimal measures one view only; BENCH_TOP=n prints the n costliest modules (default all);
// BENCH_WITHOUT='dom/source.ts,dom/delegate.ts' also prints what those modules cost together, i.e. what
// a design that left them out of the view would save.
const VIEWS = Object.entries(ALL_VIEWS).filter(([name]) => !process.env.BENCH_VIEWS || process.env.BENCH_VIEWS.split(',').includes(name))
const TOP = Number(process.env.BENCH_TOP ?? Infinity)
const WITHOUT = process.env.BENCH_WITHOUT?.split(',').filter(Boolean) ?? []
// BENCH_NO_MESSAGES=1 also prints the script with duetkit's messages emptied (and, with BENCH_WITHOUT,
// both together): what builds without duetkit's error and warning texts could save at most.
const NO_MESSAGES = process.env.BENCH_NO_MESSAGES === '1'

// Heads each module's code, so the script can be cut back into modules: a call the bundler must keep,
// in module order. (Not `chunk.modules[id].code`: after a `duet({ omit })` flag turned a branch off,
// that can still hold code the bundler then dropped from the script; nor the bundler's `// path`
// comments, which go with a module's first statement when that statement is dropped.)
const MARK = '__duetBenchModule'
const MARKS = new RegExp(`${MARK}\\(("[^"]*")\\);\\n?`, 'g')

/** The script's modules, each with the code it has in the script, and the script without the marks. */
function regions(code) {
  const marks = [...code.matchAll(MARKS)]
  const modules = marks.map((m, i) => ({ id: JSON.parse(m[1]), code: code.slice(m.index + m[0].length, marks[i + 1]?.index ?? code.length) }))
  return { code: code.replace(MARKS, ''), modules }
}

/**
 * The view's page as built, and its script unminified with the code each module contributed to it,
 * captured before vite-plugin-singlefile inlines the script into the page.
 */
async function measure(root) {
  let script
  const capture = {
    name: 'duet-bench-size',
    enforce: 'pre',
    transform: (code, id) => (/^[^\0]*\.(m?js|jsx|ts|tsx)$/.test(id) ? `${MARK}(${JSON.stringify(id)});\n${code}` : undefined),
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk')
      if (chunks.length !== 1) throw new Error(`bench:size: expected one script in ${root}, got ${chunks.length}`)
      script = regions(chunks[0].code)
    },
  }
  const page = await buildView(root)
  await buildView(root, { plugins: [capture], minify: false })
  const built = page.match(/<script[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? ''
  return { pageGzip: gzipSync(page).length, scriptGzip: gzipSync(built).length, script }
}

const minified = (code) => {
  // `unused: false`: the build already dropped what nothing uses, and with a module taken out the
  // minifier would otherwise also drop everything only it used, charging all of that to the module.
  // On the whole copy this gives within a few dozen bytes the build's own script (both are printed).
  const result = minifySync('view.js', code, { module: true, compress: { unused: false } })
  if (result.errors.length) throw new Error(`bench:size: the minifier failed: ${result.errors[0].message}`)
  return result.code
}
const gzip = (code) => gzipSync(minified(code)).length

// A message, as far as a bench can tell: a string, or the text of a template between its `${…}`, with a
// space in it and longer than 12 characters. Protocol methods, URLs, tags and keys have no spaces; the
// rule may also take a short label or a CSS value, so what it saves is an upper bound. Only duetkit's
// modules are read: a view's own strings are its content (the reader's whole document).
const isMessage = (text) => text.length > 12 && text.includes(' ')

/** A module's code with the text of every message taken out (quotes and `${…}` parts kept). */
function withoutMessages(code) {
  const { program, errors } = parseSync('view.js', code)
  if (errors.length) throw new Error(`bench:size: the parser failed: ${errors[0].message}`)
  const spans = []
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    // Offsets are in UTF-16 units, as String#slice counts; a literal's span has its quotes, a template part's not.
    if (node.type === 'Literal' && typeof node.value === 'string' && isMessage(node.value)) spans.push([node.start + 1, node.end - 1])
    if (node.type === 'TemplateElement' && isMessage(node.value.raw)) spans.push([node.start, node.end])
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value)
  }
  visit(program)
  spans.sort((a, b) => b[0] - a[0])
  return spans.reduce((rest, [from, to]) => rest.slice(0, from) + rest.slice(to), code)
}

// A module's name as a reader looks for it: its path inside duetkit, or in the view's own folder.
const label = (id, root) =>
  id.includes('/duetkit/dist/')
    ? `duetkit ${id.slice(id.indexOf('/duetkit/dist/') + 14).replace(/\.js$/, '.ts')}`
    : id.startsWith(root)
      ? `view ${id.slice(root.length)}`
      : id

// A plugin that sets `duet({ omit })` flags after duet() has defined them all: 'true' leaves a part out, 'false' puts it back.
const flagging = (flags, value) => ({ name: 'duet-bench-omit', enforce: 'post', config: () => ({ define: Object.fromEntries(flags.map((f) => [f, value])) }) })
const pageWith = async (root, plugin) => gzipSync(await buildView(root, { plugins: [plugin] })).length

/** What the view's own `duet({ omit })` takes off its page, and what leaving out each other part would (0 for one left out already). */
async function omitSavings(root, pageGzip) {
  const whole = await pageWith(root, flagging(Object.values(OMITTABLE), 'false'))
  const each = []
  for (const [part, flag] of Object.entries(OMITTABLE)) each.push(`${part} ${pageGzip - (await pageWith(root, flagging([flag], 'true')))} B`)
  return { own: whole - pageGzip, whole, each: each.join(', ') }
}

for (const [name, root] of VIEWS) {
  const { pageGzip, scriptGzip, script } = await measure(root)
  const whole = gzip(script.code)
  const present = script.modules.filter((m) => m.code.trim()).map((m) => ({ ...m, module: label(m.id, root) }))
  // `code` with each of `modules` rewritten by `to`; a function as replacement, since a module's code may
  // hold `$&` and the like, which a string replacement reads.
  const rewrite = (code, modules, to) => modules.reduce((rest, m) => rest.replace(m.code, () => to(m)), code)
  const without = (taken) => rewrite(script.code, taken, () => '')
  const rows = present.map((m) => ({ module: m.module, cost: whole - gzip(without([m])) }))
  rows.sort((a, b) => b.cost - a.cost)
  const attributed = rows.reduce((sum, r) => sum + r.cost, 0)
  console.log(`\n${name}: page ${pageGzip} B gzip, of which script ${scriptGzip} B`)
  console.log(`  each module's cost, on a copy of the script cut into modules (${whole} B once minified as Vite does and gzipped):`)
  console.log(`  ${'bytes'.padStart(6)}  ${'share'.padStart(6)}  module`)
  for (const r of rows.slice(0, TOP)) console.log(`  ${String(r.cost).padStart(6)}  ${`${((100 * r.cost) / whole).toFixed(1)}%`.padStart(6)}  ${r.module}`)
  if (rows.length > TOP) console.log(`  (${rows.length - TOP} more modules, ${rows.slice(TOP).reduce((s, r) => s + r.cost, 0)} B)`)
  console.log(
    `  ${String(whole - attributed).padStart(6)}  ${`${((100 * (whole - attributed)) / whole).toFixed(1)}%`.padStart(6)}  shared: what no one module costs alone (gzip's back-references across modules)`,
  )
  const of = (side) => rows.filter((r) => r.module.startsWith(side)).reduce((sum, r) => sum + r.cost, 0)
  console.log(`  by side: duetkit ${of('duetkit ')} B, the view's own code ${of('view ')} B, shared ${whole - attributed} B`)
  const omits = await omitSavings(root, pageGzip)
  console.log(`  its duet({ omit }) takes ${omits.own} B off the page (${omits.whole} B with nothing left out)`)
  // Only for a part the view does not use: one it uses fails at run time once left out.
  console.log(`  leaving out each part too would take off: ${omits.each}`)
  const taken = present.filter((m) => WITHOUT.some((w) => m.module.endsWith(w)))
  if (WITHOUT.length) console.log(`  together, ${taken.map((m) => m.module).join(' + ') || '(no module matched)'}: ${whole - gzip(without(taken))} B`)
  if (NO_MESSAGES) {
    // Each of duetkit's modules parsed once, for both figures below.
    const duetkit = present.filter((m) => m.module.startsWith('duetkit '))
    const bareCode = new Map(duetkit.map((m) => [m, withoutMessages(m.code)]))
    const quiet = (code) => rewrite(code, duetkit, (m) => bareCode.get(m))
    const bare = gzip(quiet(script.code))
    console.log(`  with duetkit's messages emptied (at most what builds without them save): script ${bare} B, ${whole - bare} B less`)
    if (taken.length) {
      const both = gzip(quiet(without(taken)))
      console.log(`  and without those modules too: script ${both} B, ${whole - both} B less; page about ${pageGzip - (whole - both)} B`)
    }
  }
}
