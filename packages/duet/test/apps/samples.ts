import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { transform } from 'esbuild'
import type { Component } from 'duet'

/** One fenced code sample of a recipe. */
export interface Sample {
  recipe: string
  /** 1-based position among the recipe's samples, for test names. */
  index: number
  lang: string
  kind: string
  code: string
}

// ```lang kind\n ... \n``` ; a fence with no kind still matches, so the tests can reject it.
const FENCE = /^```([A-Za-z]*)(?:[ \t]+([\w-]+))?[ \t]*\n([\s\S]*?)\n```[ \t]*$/gm

/** Every fenced sample of a recipe's markdown, in order. */
export function samplesOf(recipe: string, text: string): Sample[] {
  return [...text.matchAll(FENCE)].map((m, i) => ({ recipe, index: i + 1, lang: m[1], kind: m[2] ?? '', code: m[3] }))
}

let moduleDir: string | undefined

/**
 * Compiles a `jsx duet-component` sample the way display_component will (JSX with Duet's automatic
 * runtime, nothing else) and imports its default export.
 */
export async function importComponent(sample: Sample): Promise<Component> {
  const { code } = await transform(sample.code, { loader: 'jsx', jsx: 'automatic', jsxImportSource: 'duet', format: 'esm' })
  moduleDir ??= mkdtempSync(join(tmpdir(), 'duet-recipe-samples-'))
  const file = join(moduleDir, `${sample.recipe}-${sample.index}.mjs`)
  writeFileSync(file, code)
  const module = await import(/* @vite-ignore */ file)
  return module.default as Component
}

/** Splits a shell line into words, honouring single and double quotes (no expansions). */
export function shellWords(line: string): string[] {
  const words: string[] = []
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3])
  return words
}
