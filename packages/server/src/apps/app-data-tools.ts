import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import { subjectOf } from '../server/subject.js'
import type { AppStore } from './app-store.js'
import { DEFAULT_PAGE_CHARS, DEFAULT_PAGE_ITEMS } from './paging.js'
import { guarded } from '../server/tool-error.js'
import { toolResult } from './tool-result.js'
import { checkViewApp } from './view-confinement.js'

const VIEW_CHANNEL = z
  .string()
  .optional()
  .describe("Set by the display shell: the channel of the render the calling view belongs to, which limits the call to that render's app.")

/** Registers put_app_data (agent and app) and get_app_data (app only); a view's calls reach only its own app (see view-confinement.ts). */
export function registerAppDataTools(app: Pick<AppServer, 'tool'>, store: AppStore): void {
  app.tool(
    'put_app_data',
    {
      description:
        'Store JSON data for an app to read page by page with get_app_data (e.g. a book as an array of pages), instead of pasting it into the HTML. ' +
        'Data only: the server never runs it. append: true adds to a stored array or string, for content too big for one call.',
      inputSchema: {
        app: z.string().describe("a namespace for the app's data, e.g. 'declaration-reader'"),
        key: z.string().describe("e.g. 'pages'"),
        value: z.unknown().describe('any JSON value; arrays page by items, strings by characters'),
        append: z.boolean().optional(),
        channel_id: VIEW_CHANNEL,
      },
    },
    (args: { app: string; key: string; value: unknown; append?: boolean; channel_id?: string }, extra: ToolExtra) =>
      guarded(async () => {
        const space = store.forSubject(subjectOf(extra))
        if (args.channel_id !== undefined) await checkViewApp(space, args.channel_id, args.app, args.key, 'write')
        const info = await space.putData(args.app, args.key, args.value, { append: args.append === true })
        const unit = info.kind === 'array' ? 'items' : info.kind === 'string' ? 'characters' : 'value'
        return toolResult(`Stored ${args.app}/${args.key}: ${info.total} ${unit}, ${info.bytes} bytes.`, { ...info })
      }),
  )

  app.tool(
    'get_app_data',
    {
      description:
        `App-only (the app view calls it through the host; you store the data with put_app_data): reads one page of an app's data. An array pages by items (default ${DEFAULT_PAGE_ITEMS}), a string by characters (default ${DEFAULT_PAGE_CHARS}); ` +
        'any other JSON value comes whole. Returns { value, offset, total, next? }; pass next as offset for the following page.',
      inputSchema: {
        app: z.string(),
        key: z.string(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).optional(),
        channel_id: VIEW_CHANNEL,
      },
      annotations: { readOnlyHint: true },
      visibility: ['app'],
    },
    (args: { app: string; key: string; offset?: number; limit?: number; channel_id?: string }, extra: ToolExtra) =>
      guarded(async () => {
        const space = store.forSubject(subjectOf(extra))
        if (args.channel_id !== undefined) await checkViewApp(space, args.channel_id, args.app, args.key, 'read')
        const page = await space.getData(args.app, args.key, {
          ...(args.offset !== undefined && { offset: args.offset }),
          ...(args.limit !== undefined && { limit: args.limit }),
        })
        return toolResult(JSON.stringify(page), { ...page })
      }),
  )
}
