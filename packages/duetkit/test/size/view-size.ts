import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Plugin, type Rolldown } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'
import { duetkitAliases } from '../../../../test/support/duetkit-aliases.js'
import { ownViewPlugins } from '../../../../test/support/view-plugins.js'

/** The budget file: each view's gzip budget in bytes, in one place. */
export const BUDGET_FILE = fileURLToPath(new URL('../../../../size-budget.json', import.meta.url))

/** Each view's root folder, relative to the repository. */
export const VIEW_ROOTS: Record<string, string> = {
  forecast: 'examples/forecast',
  reader: 'examples/reader',
  minimal: 'packages/duetkit/bench/mcp/minimal-duet',
}

export interface Budget {
  gzipBytes: number
}

export function readBudgets(): Record<string, Budget> {
  const parsed = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as { views: Record<string, Budget> }
  return parsed.views
}

/**
 * Builds a view folder as its users do (its vite.config.js's plugins, minified, one HTML file), with
 * `duetkit` taken from source so the figure is never that of a stale dist. `extra` plugins run too.
 */
export async function buildView(name: string, extra: Plugin[] = []): Promise<string> {
  const root = fileURLToPath(new URL(`../../../../${VIEW_ROOTS[name]}/`, import.meta.url))
  // As `vite build` runs for users: under vitest NODE_ENV is 'test', and Vite then builds JSX for
  // development (file names and lines in every element), about 130-270 bytes gzip more per view.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  let out: Awaited<ReturnType<typeof build>>
  try {
    out = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      resolve: { alias: duetkitAliases },
      plugins: [...((await ownViewPlugins(root)) ?? [duet(), viteSingleFile()]), ...extra],
      build: { write: false },
    })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[]
  const page = outputs.flatMap((o) => o.output).find((f) => f.fileName === 'index.html')
  if (page?.type !== 'asset') throw new Error(`buildView: vite produced no index.html for ${root}`)
  return String(page.source)
}

const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`

/** Judges one built view against its budget: undefined when within it, else the figures of the overrun. */
export function overBudget(name: string, html: string, budget: Budget): string | undefined {
  const size = gzipSync(html).length
  if (size <= budget.gzipBytes) return undefined
  return `${name}: ${kb(size)} gzip (${size} bytes) is over its budget of ${kb(budget.gzipBytes)} (${budget.gzipBytes} bytes) by ${size - budget.gzipBytes} bytes; shrink it (npm run bench:size shows what each module costs it), or raise views.${name}.gzipBytes in size-budget.json if the growth is worth it`
}
