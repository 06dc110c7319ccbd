import type { Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'
import { errorText, isMethodNotFound } from './content-view.js'

/** A listing that failed: `note` when the server does not offer it (not worth a banner), `error` otherwise. */
export interface ListProblem {
  note?: string
  error?: string
}

/** One server in the resources tab. */
export interface ResourceSection {
  id: string
  title: string
  /** Set when the server is not connected: nothing was listed. */
  status?: string
  resources: Resource[]
  templates: ResourceTemplateType[]
  resourcesProblem?: ListProblem
  templatesProblem?: ListProblem
}

/** One server in the prompts tab. */
export interface PromptSection {
  id: string
  title: string
  status?: string
  prompts: Prompt[]
  problem?: ListProblem
}

const titleOf = (s: ServerView) => (s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : s.label)

// Follows `nextCursor` to the end (at most 100 pages), so a paginating server shows everything it has.
async function listAll<T>(server: string, method: string, key: string): Promise<{ items: T[]; problem?: ListProblem }> {
  const items: T[] = []
  let cursor: string | undefined
  try {
    for (let page = 0; page < 100; page++) {
      const result = await rpc<Record<string, unknown>>(server, method, cursor ? { cursor } : {}, 'user')
      items.push(...((result[key] as T[] | undefined) ?? []))
      cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined
      if (!cursor) break
    }
    return { items }
  } catch (err) {
    return { items, problem: isMethodNotFound(err) ? { note: `not offered (${method}: method not found)` } : { error: errorText(method, err) } }
  }
}

/** Every server's resources and templates (a server that is not connected lists none). */
export function listResources(servers: ServerView[]): Promise<ResourceSection[]> {
  return Promise.all(
    servers.map(async (s): Promise<ResourceSection> => {
      if (s.status !== 'connected') return { id: s.id, title: titleOf(s), status: s.status, resources: [], templates: [] }
      const [resources, templates] = await Promise.all([
        listAll<Resource>(s.id, 'resources/list', 'resources'),
        listAll<ResourceTemplateType>(s.id, 'resources/templates/list', 'resourceTemplates'),
      ])
      return {
        id: s.id,
        title: titleOf(s),
        resources: resources.items,
        templates: templates.items,
        ...(resources.problem && { resourcesProblem: resources.problem }),
        ...(templates.problem && { templatesProblem: templates.problem }),
      }
    }),
  )
}

/** Every server's prompts. */
export function listPrompts(servers: ServerView[]): Promise<PromptSection[]> {
  return Promise.all(
    servers.map(async (s): Promise<PromptSection> => {
      if (s.status !== 'connected') return { id: s.id, title: titleOf(s), status: s.status, prompts: [] }
      const prompts = await listAll<Prompt>(s.id, 'prompts/list', 'prompts')
      return { id: s.id, title: titleOf(s), prompts: prompts.items, ...(prompts.problem && { problem: prompts.problem }) }
    }),
  )
}
