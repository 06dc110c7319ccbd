import { resolveDataDir } from './data-dir.js'
import { resolveLimits, type ChannelLimits } from './limits.js'
import { openMemoryStore } from './memory-store.js'
import { importWithPeer } from './optional-peer.js'
import { DuetError } from 'duetkit/protocol'
import type { ChannelStore } from './store.js'

/** Options for `openChannelStore`. */
export interface ChannelStoreOptions {
  /** 'sqlite' (default: one file every local process shares), 'memory' (this process only) or 'redis' (replicas on many machines). */
  backend?: 'sqlite' | 'memory' | 'redis'
  /** Folder for the SQLite file; defaults to `resolveDataDir()`. */
  dataDir?: string
  /** Redis URL, e.g. `redis://127.0.0.1:6379`; required for the redis backend. */
  url?: string
  limits?: Partial<ChannelLimits>
}

/**
 * Opens the channel store. Backends load lazily so a process that never uses Redis or SQLite does not
 * pay for loading them.
 */
export async function openChannelStore(options: ChannelStoreOptions = {}): Promise<ChannelStore> {
  const factory = 'openChannelStore'
  if (options === null || typeof options !== 'object') throw new DuetError('INVALID_OPTION', `${factory}: options must be an object.`, { option: 'options' })
  const limits = resolveLimits(factory, options.limits)
  const backend = options.backend ?? 'sqlite'
  switch (backend) {
    case 'memory':
      return openMemoryStore(limits)
    case 'sqlite': {
      const { openSqliteStore } = await import('./sqlite-store.js')
      return openSqliteStore(resolveDataDir(options.dataDir), limits)
    }
    case 'redis': {
      if (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
        throw new DuetError('INVALID_OPTION', `${factory}: the redis backend needs options.url like 'redis://127.0.0.1:6379'.`, { option: 'url' })
      }
      const { openRedisStore } = await importWithPeer('redis', `${factory}: the redis backend`, () => import('./redis-store.js'))
      return openRedisStore(options.url, limits)
    }
    default:
      throw new DuetError('INVALID_OPTION', `${factory}: options.backend must be 'sqlite', 'memory' or 'redis', got ${JSON.stringify(backend)}.`, {
        option: 'backend',
      })
  }
}
