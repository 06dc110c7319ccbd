import * as z from 'zod'
import type { AppServer } from '../server/app-server.js'
import { DuetError } from 'duetkit/protocol'
import { RECIPES, type Recipe } from './recipes/index.js'
import { guarded } from '../server/tool-error.js'
import { toolResult } from './tool-result.js'

// Recipes are looked up in this map by exact name, never turned into a path.
const BY_NAME = new Map(RECIPES.map((r) => [r.name, r]))

/** The recipe of that name, or `NOT_FOUND` listing the names there are. */
export function findRecipe(name: unknown): Recipe {
  const recipe = typeof name === 'string' ? BY_NAME.get(name) : undefined
  if (recipe) return recipe
  throw new DuetError('NOT_FOUND', `No recipe is named ${JSON.stringify(name)}. Recipes: ${RECIPES.map((r) => r.name).join(', ')}.`, { kind: 'recipe', name })
}

/**
 * Registers the recipes twice: as the tools `list_recipes` / `get_recipe` (many hosts show the model
 * tools but not prompts or resources) and as MCP prompts named like the recipes, for hosts that
 * offer prompts to the user.
 */
export function registerRecipes(app: Pick<AppServer, 'tool' | 'configure'>): void {
  app.tool(
    'list_recipes',
    {
      description: 'List the recipes for building Duet apps (getting started, two-way events, components, readers, debugging...): name and when to read it.',
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(() => {
        const recipes = RECIPES.map(({ name, description }) => ({ name, description }))
        return toolResult(recipes.map((r) => `${r.name}: ${r.description}`).join('\n'), { recipes })
      }),
  )

  app.tool(
    'get_recipe',
    {
      description: 'Read one recipe (markdown) by name from list_recipes. Start with getting-started.',
      inputSchema: { name: z.string() },
      annotations: { readOnlyHint: true },
    },
    (args: { name: string }) =>
      guarded(() => {
        const recipe = findRecipe(args.name)
        return toolResult(recipe.text)
      }),
  )

  app.configure((mcp) => {
    for (const recipe of RECIPES) {
      mcp.registerPrompt(recipe.name, { title: recipe.title, description: recipe.description }, () => ({
        description: recipe.description,
        messages: [{ role: 'user', content: { type: 'text', text: recipe.text } }],
      }))
    }
  })
}
