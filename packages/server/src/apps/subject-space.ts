import { checkPublicChannelId } from '../channel/store.js'
import { channelKey, withPublicId } from '../channel/subject-scope.js'
import type { AppStoreOperations } from './app-store.js'

/**
 * One subject's view of an owner space's operations (`ops`, already limited to that owner's saved apps, data
 * and log): render records, which are keyed by channel, are kept under the channel's store key in the
 * subject's scope, the same key its channel has — so `get_render`, `save_app` and `load_app` reach only the
 * renders of the caller's own channels; render quotas are charged to the subject, or in the shared space to
 * `owner` (see `addressOwner`). Channel ids are checked as public ids (no caller can name another
 * space's key), and errors and records name the id the caller used.
 */
export function inSubjectSpace(ops: AppStoreOperations, subject: string | undefined, owner?: string): AppStoreOperations {
  const keyOf = (id: string) => channelKey(subject, checkPublicChannelId(id))
  const on = async <T>(id: string, work: (key: string) => Promise<T>): Promise<T> => {
    const key = keyOf(id)
    try {
      return await work(key)
    } catch (err) {
      throw withPublicId(err, key, id)
    }
  }
  return Object.freeze({
    ...ops,
    // A subject's key names its owner; in the shared space `owner` (a client address's space) is charged.
    recordRender: (channelId, input) => on(channelId, async (key) => ({ ...(await ops.recordRender(key, input, owner)), channelId })),
    getRender: (channelId) =>
      on(channelId, async (key) => {
        const record = await ops.getRender(key)
        return record && { ...record, channelId }
      }),
    saveApp: (name, channelId, options) => on(channelId, (key) => ops.saveApp(name, key, options)),
  })
}
