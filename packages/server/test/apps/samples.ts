import { runInThisContext } from 'node:vm'
import type { Component } from 'duetkit'
import { compileComponent } from '../../src/apps/compile-component.js'
import { MOUNT_GLOBAL, SHARED_MODULES_GLOBAL } from '../../src/apps/shell/globals.js'

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

/**
 * Compiles a `jsx duet-component` sample with display_component's compiler and runs the script in the
 * test process the way the display shell does in the iframe: the shared modules on a global, the
 * default export handed to the mount function.
 */
export async function importComponent(sample: Sample): Promise<Component> {
  const { script } = await compileComponent(sample.code)
  const scope = globalThis as Record<string, unknown>
  scope[SHARED_MODULES_GLOBAL] = {
    duetkit: await import('duetkit'),
    'duetkit/jsx-runtime': await import('duetkit/jsx-runtime'),
    'duetkit/mcp': await import('duetkit/mcp'),
  }
  let mounted: Component | undefined
  scope[MOUNT_GLOBAL] = (component: Component) => {
    mounted = component
  }
  try {
    runInThisContext(script, { filename: `${sample.recipe}-${sample.index}.js` })
  } finally {
    delete scope[MOUNT_GLOBAL]
    delete scope[SHARED_MODULES_GLOBAL]
  }
  return mounted!
}

/** Splits a shell line into words, honouring single and double quotes (no expansions). */
export function shellWords(line: string): string[] {
  const words: string[] = []
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3])
  return words
}
