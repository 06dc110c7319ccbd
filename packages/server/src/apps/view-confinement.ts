import { DuetError } from 'duetkit/protocol'
import type { AppStoreOperations } from './app-store.js'
import { noDataError } from './app-data.js'
import { checkAppName } from './names.js'

/**
 * A view's data calls name the render they come from (`channel_id`; the display shell adds it to every
 * get_app_data and put_app_data of its page and component). Such a call reaches only the app that render
 * belongs to (the display tool's `app`), in the caller's own subject space: a fragment cannot read, list or
 * overwrite its neighbours' data. A call without a channel is the agent's, which owns every app of its space.
 */
export async function checkViewApp(space: AppStoreOperations, channelId: string, app: string, key: string, access: 'read' | 'write'): Promise<void> {
  checkAppName(app, 'app')
  const render = await space.getRender(channelId)
  if (render?.app === app) return
  // A read answers as for missing data, so a view learns nothing about another app (not even that it exists).
  if (access === 'read') {
    if (render && render.app === undefined) throw unboundError(channelId, app, key)
    throw noDataError(app, key)
  }
  throw new DuetError(
    'FORBIDDEN',
    `A view may write only the data of its own app, and the render on channel '${channelId}' ${render?.app ? `belongs to '${render.app}'` : 'belongs to no app'}. The agent writes other apps' data with put_app_data itself.`,
    { field: 'app', channel_id: channelId },
  )
}

/** A read by the view of a render that names no app: say how the agent gives it one. */
function unboundError(channelId: string, app: string, key: string): DuetError {
  return new DuetError(
    'NOT_FOUND',
    `There is no data under '${app}/${key}' for this view: its render (channel '${channelId}') belongs to no app. The agent shows it again with the display tool's app: '${app}' to let it read that app's data.`,
    { kind: 'data', name: `${app}/${key}` },
  )
}
