import { expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { compileComponent } from '../../src/apps/compile-component.js'
// @ts-expect-error -- a plain JavaScript module of the example, without types
import { readerModuleSource, recipeFile } from '../../../../examples/reader/recipe-source.js'

const recipePath = fileURLToPath(new URL('../../src/apps/recipes/declaration-reader.ts', import.meta.url))

it('the declaration-reader recipe is the reader example as it is now (regenerate with recipe-source.js --write)', () => {
  expect(readFileSync(recipePath, 'utf8')).toBe(recipeFile())
})

it('the reader module compiles for display_component, importing nothing but duetkit', async () => {
  const source: string = readerModuleSource()
  expect(source.match(/^import .*$/gm)).toEqual(["import { xs } from 'duetkit'"])
  const { script } = await compileComponent(source)
  expect(script).toContain('We hold these truths to be self-evident')
  expect(script).toContain('__duetMount')
})
