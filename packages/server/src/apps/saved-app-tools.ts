import type { CallToolResult } from '@modelcontextprotocol/server'
import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import type { AppStore } from './app-store.js'
import type { SavedApp } from './saved-apps.js'
import { guarded } from '../server/tool-error.js'
import { subjectOf } from '../server/subject.js'
import { toolResult } from './tool-result.js'

/**
 * Called by `load_app` with the saved app; its result is the tool's result. The display tools use
 * it to show the app again on a fresh channel. Without it, `load_app` returns the record.
 */
export type LoadAppHook = (app: SavedApp, extra: ToolExtra) => CallToolResult | Promise<CallToolResult>

function redisplayHint(app: SavedApp): string {
  return app.kind === 'html'
    ? 'To show it again, call display_ui_to_user with this html; the display tool opens a fresh channel, so use the channel_id it returns from then on.'
    : 'To show it again, call display_component with this source and props; the display tool opens a fresh channel, so use the channel_id it returns from then on.'
}

/** Registers save_app, list_saved_apps, load_app and delete_saved_app. */
export function registerSavedAppTools(app: Pick<AppServer, 'tool'>, store: AppStore, onLoad?: LoadAppHook, loadMeta?: Record<string, unknown>): void {
  app.tool(
    'save_app',
    {
      description:
        'Save the app last rendered on a channel under a name, to show it again later with load_app. Saves the HTML or component source and props as rendered.',
      inputSchema: {
        name: z.string().describe("lowercase letters, digits, '_' or '-', e.g. 'declaration-reader'"),
        channel_id: z.string().describe('the channel_id the display tool returned for the render'),
        description: z.string().optional().describe('what the app is for and how to drive it, read back by load_app'),
        replace: z.boolean().optional().describe('overwrite a saved app of the same name'),
      },
    },
    (args: { name: string; channel_id: string; description?: string; replace?: boolean }, extra: ToolExtra) =>
      guarded(async () => {
        const saved = await store.forSubject(subjectOf(extra)).saveApp(args.name, args.channel_id, {
          ...(args.description !== undefined && { description: args.description }),
          ...(args.replace !== undefined && { replace: args.replace }),
        })
        return toolResult(`Saved '${saved.name}' (${saved.kind}${saved.title ? `: ${saved.title}` : ''}).`, {
          name: saved.name,
          kind: saved.kind,
          savedAt: new Date(saved.savedAt).toISOString(),
        })
      }),
  )

  app.tool(
    'list_saved_apps',
    {
      description: 'List saved apps, newest first: name, kind, title, description.',
      annotations: { readOnlyHint: true },
      // The agent's alone: a view that could list, load or delete saved apps would reach its neighbours.
      visibility: ['model'],
    },
    (_args: Record<string, never>, extra: ToolExtra) =>
      guarded(async () => {
        const apps = (await store.forSubject(subjectOf(extra)).listApps()).map((a) => ({ ...a, savedAt: new Date(a.savedAt).toISOString() }))
        return toolResult(apps.length ? JSON.stringify(apps) : 'No saved apps yet: render one, then save_app.', { apps })
      }),
  )

  app.tool(
    'load_app',
    {
      description: 'Load a saved app by name: its HTML or component source and props, to display again.',
      inputSchema: { name: z.string().describe('a name from list_saved_apps') },
      // With the display tools it shows the app again on a fresh channel, which is a write.
      annotations: onLoad ? { readOnlyHint: false, idempotentHint: false } : { readOnlyHint: true },
      visibility: ['model'],
      ...(loadMeta && { _meta: loadMeta }),
    },
    (args: { name: string }, extra: ToolExtra) =>
      guarded(async () => {
        const saved = await store.forSubject(subjectOf(extra)).loadApp(args.name)
        if (onLoad) return onLoad(saved, extra)
        const record = { ...saved, savedAt: new Date(saved.savedAt).toISOString() }
        return toolResult(`${redisplayHint(saved)}\n${JSON.stringify(record)}`, { app: record })
      }),
  )

  app.tool(
    'delete_saved_app',
    {
      description: 'Delete a saved app by name.',
      inputSchema: { name: z.string() },
      annotations: { destructiveHint: true },
      visibility: ['model'],
    },
    (args: { name: string }, extra: ToolExtra) =>
      guarded(async () => {
        const deleted = await store.forSubject(subjectOf(extra)).deleteApp(args.name)
        return toolResult(deleted ? `Deleted '${args.name}'.` : `No saved app was named '${args.name}'; nothing deleted.`, { deleted })
      }),
  )
}
