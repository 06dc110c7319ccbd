export { openChannelStore, type ChannelStoreOptions } from './open-store.js'
export { registerChannelTools, type ChannelToolHost } from './tools.js'
export { resolveDataDir } from './data-dir.js'
export { DEFAULT_LIMITS, type ChannelLimits } from './limits.js'
export { channelKey, scopeChannelStore, subjectScope } from './subject-scope.js'
export {
  checkChannelId,
  checkPublicChannelId,
  DIRECTIONS,
  type ChannelMessage,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
} from './store.js'
