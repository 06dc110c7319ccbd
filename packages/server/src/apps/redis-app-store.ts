import { DuetError, type LogLevel } from 'duetkit/protocol'
import { checkChannelId } from '../channel/store.js'
import { connectRedis, redactRedisUrl, redisUnavailable, type RedisClient } from '../channel/redis-connection.js'
import { checkPut, encodeValue, keysFullError, merged, noDataError, type DataInfo, type PutDataOptions } from './app-data.js'
import type { AppStore, AppStoreOperations } from './app-store.js'
import { inSubjectSpace } from './subject-space.js'
import { checkSubject, subjectScope } from '../channel/subject-scope.js'
import type { AppLimits } from './limits.js'
import { checkAppName, checkDataKey } from './names.js'
import { pageOf, type DataPage, type PageRequest } from './paging.js'
import { renderToRow, rowToRender, type RenderInput, type RenderRecord, type RenderRow } from './render-store.js'
import {
  checkDescription,
  nameTakenError,
  noRenderError,
  noSavedAppError,
  rowToSaved,
  savedAppsFullError,
  type SaveAppOptions,
  type SavedApp,
  type SavedAppSummary,
  type SavedRow,
} from './saved-apps.js'
import { checkLogEntry, checkTail, levelsFrom, type LogEntry } from './server-log.js'

// Every key shares the {apps} hash tag: the scripts below touch several keys at once, which Redis
// Cluster allows only within one slot. The same layout serves a single server.
const PREFIX = 'duet:{apps}:'
const RENDERS = `${PREFIX}renders` // sorted set: channel id by recording order
const RENDER_SEQ = `${PREFIX}render-seq`
const renderKey = (channelId: string) => `${PREFIX}render:${channelId}` // hash of the render's columns
// Saved apps, data and the log live in an owner's space: the shared one (no subject, and every key written
// before subjects existed) or a subject's (see forSubject). Renders are keyed by channel store key, which
// already carries the subject's scope, so they stay in one store-wide set.
const subjectPrefix = (scope: string) => `${PREFIX}sub:${scope}:`
const savedSet = (ns: string) => `${ns}saved` // sorted set: name by savedAt
const savedKey = (ns: string, name: string) => `${ns}saved:${name}`
const dataKey = (ns: string, app: string) => `${ns}data:${app}` // hash: key → JSON value
const versionKey = (ns: string, app: string) => `${ns}data-version:${app}` // hash: key → write count, for compare-and-set
const logList = (ns: string) => `${ns}log` // list of '<level> <entry JSON>', oldest first
const logSeq = (ns: string) => `${ns}log-seq`

// Each script runs atomically, so replicas racing on one name, key or cap see one order of events,
// as the SQLite store's immediate transactions give between local processes.
const RECORD_RENDER = `
local seq = redis.call('INCR', KEYS[3])
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[1], seq, ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, over - 1)) do redis.call('DEL', ARGV[3] .. id) end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
end
return 'ok'
`
const SAVE_APP = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'no-render'} end
local taken = redis.call('EXISTS', KEYS[2]) == 1
if taken and ARGV[2] ~= '1' then return {'taken'} end
if not taken and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return {'full'} end
local render = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[2])
for i = 1, #render, 2 do
  if render[i] ~= 'at' then redis.call('HSET', KEYS[2], render[i], render[i + 1]) end
end
redis.call('HSET', KEYS[2], 'saved_at', ARGV[4])
if ARGV[5] == '1' then redis.call('HSET', KEYS[2], 'description', ARGV[6]) end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return {'ok', render}
`
// Writes a value only if nobody wrote the key since it was read (ARGV[2]: the version read, '' for absent).
const PUT_DATA = `
local version = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if version ~= ARGV[2] then return 'conflict' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return 'ok'
`
const WRITE_LOG = `
local id = redis.call('INCR', KEYS[2])
local data = ''
if ARGV[4] ~= '' then data = ',"data":' .. ARGV[4] end
redis.call('RPUSH', KEYS[1], ARGV[1] .. ' {"id":' .. id .. ',"at":' .. ARGV[2] .. ',"level":"' .. ARGV[1] .. '","message":' .. ARGV[3] .. data .. '}')
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[5]), -1)
return id
`
// Walks the log from its newest row back, a chunk at a time, until n rows of the wanted levels are found.
const TAIL_LOG = `
local n = tonumber(ARGV[1])
local want = nil
if #ARGV > 1 then
  want = {}
  for i = 2, #ARGV do want[ARGV[i]] = true end
end
local out = {}
local stop = redis.call('LLEN', KEYS[1]) - 1
while stop >= 0 and #out < n do
  local start = math.max(0, stop - 199)
  local chunk = redis.call('LRANGE', KEYS[1], start, stop)
  for i = #chunk, 1, -1 do
    local cut = string.find(chunk[i], ' ', 1, true)
    if want == nil or want[string.sub(chunk[i], 1, cut - 1)] then
      out[#out + 1] = string.sub(chunk[i], cut + 1)
      if #out >= n then break end
    end
  end
  stop = start - 1
end
return out
`

// A compare-and-set that keeps losing means dozens of writers on one key; give up with a clear error.
const MAX_PUT_ATTEMPTS = 200

type Client = RedisClient

/** Connects to Redis at `url` and returns the agent-apps store every replica on that server shares. */
export async function openRedisAppStore(url: string, limits: AppLimits): Promise<AppStore> {
  const shown = redactRedisUrl(url)
  const unavailable = (err: unknown) => redisUnavailable('agent-apps store', url, err)
  const client: Client = await connectRedis(url, 'agent-apps store')

  let closed = false
  /** Runs one Redis exchange; DISPOSED after close, STORE_UNAVAILABLE when Redis fails. */
  async function redis<T>(work: () => Promise<T>): Promise<T> {
    if (closed) throw new DuetError('DISPOSED', `The agent-apps store (${shown}) is closed; open it again with openAppStore.`)
    try {
      return await work()
    } catch (err) {
      throw err instanceof DuetError ? err : unavailable(err)
    }
  }
  const script = (source: string, keys: string[], args: string[]) => redis(() => client.eval(source, { keys, arguments: args }))

  function renderFields(row: RenderRow): string[] {
    const fields = ['kind', row.kind]
    for (const name of ['title', 'html', 'source', 'props'] as const) if (row[name] !== null) fields.push(name, row[name])
    return fields
  }
  const rowOf = (hash: Record<string, string>): RenderRow => ({
    kind: hash.kind ?? '',
    title: hash.title ?? null,
    html: hash.html ?? null,
    source: hash.source ?? null,
    props: hash.props ?? null,
  })
  const pairs = (flat: string[]): Record<string, string> => {
    const out: Record<string, string> = {}
    for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!
    return out
  }
  const savedRow = (name: string, hash: Record<string, string>): SavedRow => ({
    ...rowOf(hash),
    name,
    description: hash.description ?? null,
    saved_at: Number(hash.saved_at),
  })
  /** The operations of one owner's space, under key prefix `ns`. */
  const space = (ns: string): AppStoreOperations => {
    /** Saved names, newest first and then by name, as list_saved_apps orders them. */
    async function savedNames(): Promise<string[]> {
      const entries = await redis(() => client.zRangeWithScores(savedSet(ns), 0, -1))
      return entries.sort((a, b) => b.score - a.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).map((e) => e.value)
    }
    const sortedKeys = async (app: string) => (await redis(() => client.hKeys(dataKey(ns, app)))).sort()

    return {
      async recordRender(channelId: string, input: RenderInput): Promise<RenderRecord> {
        checkChannelId(channelId)
        const row = renderToRow(input, limits)
        const renderedAt = Date.now()
        await script(
          RECORD_RENDER,
          [RENDERS, renderKey(channelId), RENDER_SEQ],
          [String(limits.maxRenders), channelId, renderKey(''), ...renderFields(row), 'at', String(renderedAt)],
        )
        return { ...rowToRender(row), channelId, renderedAt }
      },

      async getRender(channelId: string): Promise<RenderRecord | undefined> {
        checkChannelId(channelId)
        const hash = await redis(() => client.hGetAll(renderKey(channelId)))
        if (hash.kind === undefined) return undefined
        return { ...rowToRender(rowOf(hash)), channelId, renderedAt: Number(hash.at) }
      },

      async saveApp(name: string, channelId: string, options: SaveAppOptions = {}): Promise<SavedApp> {
        checkAppName(name)
        checkChannelId(channelId)
        checkDescription(options.description)
        const savedAt = Date.now()
        const hasDescription = options.description !== undefined
        const reply = (await script(
          SAVE_APP,
          [renderKey(channelId), savedKey(ns, name), savedSet(ns)],
          [name, options.replace ? '1' : '0', String(limits.maxSavedApps), String(savedAt), hasDescription ? '1' : '0', options.description ?? ''],
        )) as [string, string[]?]
        if (reply[0] === 'no-render') throw noRenderError(channelId)
        if (reply[0] === 'taken') throw nameTakenError(name)
        if (reply[0] === 'full') throw savedAppsFullError(limits)
        const render = pairs(reply[1] ?? [])
        return rowToSaved(savedRow(name, { ...render, saved_at: String(savedAt), ...(hasDescription && { description: options.description! }) }))
      },

      async listApps(): Promise<SavedAppSummary[]> {
        const names = await savedNames()
        const rows = await redis(() => Promise.all(names.map((name) => client.hmGet(savedKey(ns, name), ['kind', 'title', 'description', 'saved_at']))))
        const apps: SavedAppSummary[] = []
        names.forEach((name, i) => {
          const [kind, title, description, savedAt] = rows[i]!
          // Deleted between the two reads: leave it out, as a later list would.
          if (kind === null || kind === undefined) return
          const summary: SavedAppSummary = { name, kind: kind as SavedAppSummary['kind'], savedAt: Number(savedAt) }
          if (title !== null && title !== undefined) summary.title = title
          if (description !== null && description !== undefined) summary.description = description
          apps.push(summary)
        })
        return apps
      },

      async loadApp(name: string): Promise<SavedApp> {
        checkAppName(name)
        const hash = await redis(() => client.hGetAll(savedKey(ns, name)))
        if (hash.kind !== undefined) return rowToSaved(savedRow(name, hash))
        throw noSavedAppError(name, await savedNames())
      },

      async deleteApp(name: string): Promise<boolean> {
        checkAppName(name)
        const [deleted] = await redis(() => client.multi().del(savedKey(ns, name)).zRem(savedSet(ns), name).exec())
        return Number(deleted) > 0
      },

      async putData(app: string, key: string, value: unknown, options: PutDataOptions = {}): Promise<DataInfo> {
        checkPut(app, key, value)
        const append = options.append === true
        for (let attempt = 0; attempt < MAX_PUT_ATTEMPTS; attempt++) {
          // Read the version with the value, so a write in between makes the set below fail and this loop retry.
          const [stored, version, count] = await redis(() =>
            client.multi().hGet(dataKey(ns, app), key).hGet(versionKey(ns, app), key).hLen(dataKey(ns, app)).exec(),
          )
          const current = typeof stored === 'string' ? stored : undefined
          if (current === undefined && Number(count) >= limits.maxKeysPerApp) throw keysFullError(app, limits)
          const { json, info } = encodeValue(app, key, merged(app, key, current, value, append), limits)
          const outcome = await script(
            PUT_DATA,
            [dataKey(ns, app), versionKey(ns, app)],
            [key, typeof version === 'string' ? version : '', json, String(limits.maxKeysPerApp)],
          )
          if (outcome === 'ok') return info
          if (outcome === 'full') throw keysFullError(app, limits)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * (attempt + 1))))
        }
        throw new DuetError(
          'STORE_UNAVAILABLE',
          `${app}/${key} changed under every one of ${MAX_PUT_ATTEMPTS} attempts to write it: too many writers on one key. Retry, or spread the writes over several keys.`,
        )
      },

      async getData(app: string, key: string, request: PageRequest = {}): Promise<DataPage> {
        checkAppName(app, 'app')
        checkDataKey(key)
        const stored = await redis(() => client.hGet(dataKey(ns, app), key))
        if (typeof stored !== 'string') throw noDataError(app, key, await sortedKeys(app))
        return pageOf(JSON.parse(stored), request, limits)
      },

      async dataKeys(app: string): Promise<string[]> {
        checkAppName(app, 'app')
        return sortedKeys(app)
      },

      async log(level: LogLevel, message: string, data?: unknown): Promise<LogEntry> {
        const json = checkLogEntry(level, message, data, limits)
        const at = Date.now()
        const id = await script(WRITE_LOG, [logList(ns), logSeq(ns)], [level, String(at), JSON.stringify(message), json ?? '', String(limits.maxLogRows)])
        const entry: LogEntry = { id: Number(id), at, level, message }
        if (json !== null) entry.data = JSON.parse(json)
        return entry
      },

      async tail(n: number, level?: LogLevel): Promise<LogEntry[]> {
        checkTail(n, level)
        const rows = (await script(TAIL_LOG, [logList(ns)], [String(n), ...(level === undefined ? [] : levelsFrom(level))])) as string[]
        return rows.reverse().map((row) => JSON.parse(row) as LogEntry)
      },
    }
  }
  const shared = space(PREFIX)

  const store: AppStore = {
    ...shared,
    backend: 'redis',
    location: shown,
    limits: Object.freeze({ ...limits }),
    forSubject(subject: string | undefined) {
      checkSubject(subject, 'forSubject')
      return inSubjectSpace(subject === undefined ? shared : space(subjectPrefix(subjectScope(subject))), subject)
    },

    async close(): Promise<void> {
      if (closed) return
      closed = true
      client.destroy()
    },
  }
  return Object.freeze(store)
}
