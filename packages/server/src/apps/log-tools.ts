import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import { subjectOf } from '../server/subject.js'
import type { AppStore } from './app-store.js'
import { formatLogEntry, LOG_LEVELS, MAX_TAIL } from './server-log.js'
import { guarded } from '../server/tool-error.js'
import { toolResult } from './tool-result.js'

/** Registers write_server_log (app only) and tail_server_log. */
export function registerLogTools(app: Pick<AppServer, 'tool'>, store: AppStore): void {
  app.tool(
    'write_server_log',
    {
      description:
        'App-only (the app view calls it through the host; the model does not): appends a line to the server log, for debugging an app; the agent reads it with tail_server_log.',
      inputSchema: {
        level: z.enum(LOG_LEVELS),
        message: z.string(),
        data: z.unknown().optional(),
      },
      visibility: ['app'],
    },
    (args: { level: (typeof LOG_LEVELS)[number]; message: string; data?: unknown }, extra: ToolExtra) =>
      guarded(async () => {
        const entry = await store.forSubject(subjectOf(extra)).log(args.level, args.message, args.data)
        return toolResult(`Logged #${entry.id}.`, { id: entry.id })
      }),
  )

  app.tool(
    'tail_server_log',
    {
      description: 'Show the last n server log lines (what apps wrote with write_server_log), oldest first. level keeps that level and above.',
      inputSchema: {
        n: z.number().int().min(1).max(MAX_TAIL).optional().describe('default 50'),
        level: z.enum(LOG_LEVELS).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    (args: { n?: number; level?: (typeof LOG_LEVELS)[number] }, extra: ToolExtra) =>
      guarded(async () => {
        const entries = await store.forSubject(subjectOf(extra)).tail(args.n ?? 50, args.level)
        const text = entries.length ? entries.map(formatLogEntry).join('\n') : 'The log is empty.'
        return toolResult(text, { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) })
      }),
  )
}
