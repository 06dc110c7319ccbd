import { DuetError, type LogLevel } from 'duetkit/protocol'
import { checkChannelId, ownerOf } from '../channel/store.js'
import { connectRedis, redactRedisUrl, redisUnavailable, type RedisClient } from '../channel/redis-connection.js'
import { checkPut, dataFull, encodeValue, keysFullError, merged, noDataError, type DataInfo, type PutDataOptions } from './app-data.js'
import type { AppStore, AppStoreOperations } from './app-store.js'
import { inSubjectSpace } from './subject-space.js'
import { checkSubject, subjectScope } from '../channel/subject-scope.js'
import type { AppLimits } from './limits.js'
import { checkAppName, checkDataKey } from './names.js'
import { pageOf, type DataPage, type PageRequest } from './paging.js'
import { renderToRow, rowToRender, type RecordRow, type RenderInput, type RenderRecord, type RenderRow } from './render-store.js'
import {
  checkDescription,
  nameTakenError,
  noRenderError,
  noSavedAppError,
  rowToSaved,
  savedAppsFull,
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
const RENDER_OWNERS = `${PREFIX}render-owners` // sorted set: owner by how many renders it holds
// How many renders have an owner; fewer than all when some predate owners (the next render adopts them).
const RENDERS_OWNED = `${PREFIX}renders-owned`
const ownerRenders = (owner: string) => `${PREFIX}renders:o:${owner}` // sorted set: an owner's channel ids by recording order
const SAVED_COUNT = `${PREFIX}saved-count` // saved apps of every space together
const DATA_APPS_COUNT = `${PREFIX}data-apps-count` // app-data namespaces of every space together
const DATA_KEYS_COUNT = `${PREFIX}data-keys-count` // app-data keys of every space together
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
const dataApps = (ns: string) => `${ns}data-apps` // set of the space's namespaces
const dataKeyCount = (ns: string) => `${ns}data-keys` // the space's keys, every namespace together

// Each script runs atomically, so replicas racing on one name, key or cap see one order of events,
// as the SQLite store's immediate transactions give between local processes.
// A count that is not an integer (hand-edited, or written by something else) is recounted where the script can
// (the renders with an owner: the sum of the owners' counts) or else started again from zero, so it never makes
// every later call fail.
const COUNTER = `
local function counter(key, recount)
  local raw = redis.call('GET', key)
  local n = tonumber(raw or '0')
  if n and n == math.floor(n) then return n end
  n = recount and recount() or 0
  redis.call('SET', key, n)
  return n
end
`
// An owner past its cap loses its own oldest render; a store past its cap takes the oldest of the owner holding
// the most. KEYS: 1 renders, 2 the render's hash, 3 seq, 4 owners by count, 5 owned count. ARGV: 1 max renders,
// 2 channel id, 3 render key prefix, 4 max per owner, 5 owner ('' for none), 6 owner set prefix, 7… the render's
// fields.
const RECORD_RENDER = `${COUNTER}
local owner = ARGV[5]
counter(KEYS[5], function()
  local n = 0
  local counts = redis.call('ZRANGE', KEYS[4], 0, -1, 'WITHSCORES')
  for i = 2, #counts, 2 do n = n + tonumber(counts[i]) end
  return n
end)
local function ownerSet(o) return ARGV[6] .. o end
local function drop(cid)
  local o = redis.call('HGET', ARGV[3] .. cid, 'owner')
  redis.call('DEL', ARGV[3] .. cid)
  redis.call('ZREM', KEYS[1], cid)
  if o and redis.call('ZREM', ownerSet(o), cid) == 1 then
    redis.call('DECR', KEYS[5])
    if tonumber(redis.call('ZINCRBY', KEYS[4], -1, o)) <= 0 then redis.call('ZREM', KEYS[4], o) end
  end
end
-- Renders an older Duet recorded have no owner: each is adopted once, as SQLite's upgrade does (a subject's by
-- the scope its key carries, the rest the shared space's), so eviction weighs them by owner like the others.
if redis.call('ZCARD', KEYS[1]) > counter(KEYS[5]) then
  local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #all, 2 do
    local cid = all[i]
    if redis.call('EXISTS', ARGV[3] .. cid) == 0 then
      redis.call('ZREM', KEYS[1], cid)
    elseif not redis.call('HGET', ARGV[3] .. cid, 'owner') then
      local o = ''
      if string.sub(cid, 24, 24) == '.' and string.match(string.sub(cid, 1, 23), '^s[%w_%-]+$') then o = string.sub(cid, 1, 23) end
      redis.call('HSET', ARGV[3] .. cid, 'owner', o)
      redis.call('ZADD', ownerSet(o), all[i + 1], cid)
      redis.call('ZINCRBY', KEYS[4], 1, o)
      redis.call('INCR', KEYS[5])
    end
  end
end
local seq = redis.call('INCR', KEYS[3])
local previous = redis.call('HGET', KEYS[2], 'owner')
if previous and previous ~= owner then drop(ARGV[2]) end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 7))
redis.call('HSET', KEYS[2], 'owner', owner)
redis.call('ZADD', KEYS[1], seq, ARGV[2])
if redis.call('ZADD', ownerSet(owner), seq, ARGV[2]) == 1 then
  redis.call('ZINCRBY', KEYS[4], 1, owner)
  redis.call('INCR', KEYS[5])
end
if owner ~= '' then
  local over = redis.call('ZCARD', ownerSet(owner)) - tonumber(ARGV[4])
  if over > 0 then
    for _, cid in ipairs(redis.call('ZRANGE', ownerSet(owner), 0, over - 1)) do drop(cid) end
  end
end
local total = redis.call('ZCARD', KEYS[1])
while total > tonumber(ARGV[1]) do
  local victim = nil
  -- Of the owners holding the most, the one whose oldest render was recorded first (as the SQLite store).
  local top = redis.call('ZREVRANGE', KEYS[4], 0, 0, 'WITHSCORES')
  local first = nil
  if top[2] then
    for _, o in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], top[2], top[2])) do
      local oldest = redis.call('ZRANGE', ownerSet(o), 0, 0, 'WITHSCORES')
      if oldest[2] and (not first or tonumber(oldest[2]) < first) then victim, first = oldest[1], tonumber(oldest[2]) end
    end
  end
  if not victim then break end
  drop(victim)
  total = redis.call('ZCARD', KEYS[1])
end
return 'ok'
`
// KEYS: 1 the render, 2 the saved app, 3 the space's saved set, 4 the store's saved count. ARGV: 1 name, 2 replace,
// 3 max per space, 4 saved at, 5 has a description, 6 the description, 7 max in all.
const SAVE_APP = `${COUNTER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'no-render'} end
local taken = redis.call('EXISTS', KEYS[2]) == 1
if taken and ARGV[2] ~= '1' then return {'taken'} end
if not taken then
  local mine = redis.call('ZCARD', KEYS[3])
  if mine >= tonumber(ARGV[3]) then return {'full', mine, '0'} end
  local all = counter(KEYS[4])
  if all >= tonumber(ARGV[7]) then return {'full', '0', all} end
end
local render = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[2])
for i = 1, #render, 2 do
  if render[i] ~= 'at' and render[i] ~= 'owner' and render[i] ~= 'app' then redis.call('HSET', KEYS[2], render[i], render[i + 1]) end
end
redis.call('HSET', KEYS[2], 'saved_at', ARGV[4])
if ARGV[5] == '1' then redis.call('HSET', KEYS[2], 'description', ARGV[6]) end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
if not taken then
  counter(KEYS[4])
  redis.call('INCR', KEYS[4])
end
return {'ok', render}
`
const DELETE_APP = `${COUNTER}
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
if counter(KEYS[3]) > 0 then redis.call('DECR', KEYS[3]) end
return 1
`
// Writes a value only if nobody wrote the key since it was read (ARGV[2]: the version read, '' for absent), and
// a new key only within the key and namespace quotas. KEYS: 1 data, 2 versions, 3 the space's namespaces, 4 the
// space's key count, 5 the store's namespace count, 6 the store's key count. ARGV: 1 key, 2 version, 3 value,
// 4 max keys per app, 5 app, 6 max namespaces per space, 7 max namespaces, 8 max keys per space, 9 max keys.
const PUT_DATA = `${COUNTER}
local function count(key) return counter(key) end
count(KEYS[4])
count(KEYS[5])
count(KEYS[6])
local version = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if version ~= ARGV[2] then return {'conflict'} end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  local appKeys = redis.call('HLEN', KEYS[1])
  if appKeys > 0 and redis.call('SISMEMBER', KEYS[3], ARGV[5]) == 0 then
    -- A namespace from before these counts were kept joins them now.
    redis.call('SADD', KEYS[3], ARGV[5])
    redis.call('INCRBY', KEYS[4], appKeys)
    redis.call('INCR', KEYS[5])
    redis.call('INCRBY', KEYS[6], appKeys)
  end
  if appKeys >= tonumber(ARGV[4]) then return {'maxKeysPerApp', appKeys} end
  if appKeys == 0 then
    local mine = redis.call('SCARD', KEYS[3])
    if mine >= tonumber(ARGV[6]) then return {'maxDataAppsPerSubject', mine} end
    local all = count(KEYS[5])
    if all >= tonumber(ARGV[7]) then return {'maxDataApps', all} end
  end
  local mine = count(KEYS[4])
  if mine >= tonumber(ARGV[8]) then return {'maxDataKeysPerSubject', mine} end
  local all = count(KEYS[6])
  if all >= tonumber(ARGV[9]) then return {'maxDataKeys', all} end
  if appKeys == 0 then
    redis.call('SADD', KEYS[3], ARGV[5])
    redis.call('INCR', KEYS[5])
  end
  redis.call('INCR', KEYS[4])
  redis.call('INCR', KEYS[6])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return {'ok'}
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

/** The LIMIT_REACHED of a put the script refused, in the shape the SQLite store gives for the same quota. */
function refusedPut(app: string, quota: string, used: number, limits: AppLimits): DuetError {
  const counts = { appKeys: 1, ownerKeys: 0, allKeys: 0, ownerApps: 0, allApps: 0 }
  if (quota === 'maxKeysPerApp') return keysFullError(app, limits, used)
  if (quota === 'maxDataAppsPerSubject') Object.assign(counts, { appKeys: 0, ownerApps: used })
  else if (quota === 'maxDataApps') Object.assign(counts, { appKeys: 0, allApps: used })
  else if (quota === 'maxDataKeysPerSubject') counts.ownerKeys = used
  else counts.allKeys = used
  return dataFull(app, counts, limits)!
}

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

  function renderFields(row: RecordRow): string[] {
    const fields = ['kind', row.kind]
    for (const name of ['title', 'html', 'source', 'props', 'app'] as const) if (row[name] !== null) fields.push(name, row[name])
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
      async recordRender(channelId: string, input: RenderInput, owner?: string): Promise<RenderRecord> {
        checkChannelId(channelId)
        const charged = ownerOf(channelId, owner)
        const row = renderToRow(input, limits)
        const renderedAt = Date.now()
        await script(
          RECORD_RENDER,
          [RENDERS, renderKey(channelId), RENDER_SEQ, RENDER_OWNERS, RENDERS_OWNED],
          [
            String(limits.maxRenders),
            channelId,
            renderKey(''),
            String(limits.maxRendersPerSubject),
            charged,
            ownerRenders(''),
            ...renderFields(row),
            'at',
            String(renderedAt),
          ],
        )
        return { ...rowToRender(row), channelId, renderedAt }
      },

      async getRender(channelId: string): Promise<RenderRecord | undefined> {
        checkChannelId(channelId)
        const hash = await redis(() => client.hGetAll(renderKey(channelId)))
        if (hash.kind === undefined) return undefined
        return { ...rowToRender({ ...rowOf(hash), app: hash.app ?? null }), channelId, renderedAt: Number(hash.at) }
      },

      async saveApp(name: string, channelId: string, options: SaveAppOptions = {}): Promise<SavedApp> {
        checkAppName(name)
        checkChannelId(channelId)
        checkDescription(options.description)
        const savedAt = Date.now()
        const hasDescription = options.description !== undefined
        const reply = (await script(
          SAVE_APP,
          [renderKey(channelId), savedKey(ns, name), savedSet(ns), SAVED_COUNT],
          [
            name,
            options.replace ? '1' : '0',
            String(limits.maxSavedAppsPerSubject),
            String(savedAt),
            hasDescription ? '1' : '0',
            options.description ?? '',
            String(limits.maxSavedApps),
          ],
        )) as [string, string[] | string | undefined, string?]
        if (reply[0] === 'no-render') throw noRenderError(channelId)
        if (reply[0] === 'taken') throw nameTakenError(name)
        if (reply[0] === 'full') throw savedAppsFull(Number(reply[1]) || 0, Number(reply[2]) || 0, limits)!
        const render = pairs((reply[1] as string[] | undefined) ?? [])
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
        const deleted = await script(DELETE_APP, [savedKey(ns, name), savedSet(ns), SAVED_COUNT], [name])
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
          // The value itself first (too large never fits), then the quotas a new key counts against, as in SQLite.
          const { json, info } = encodeValue(app, key, merged(app, key, current, value, append), limits)
          if (current === undefined && Number(count) >= limits.maxKeysPerApp) throw keysFullError(app, limits, Number(count))
          const [outcome, used] = (await script(
            PUT_DATA,
            [dataKey(ns, app), versionKey(ns, app), dataApps(ns), dataKeyCount(ns), DATA_APPS_COUNT, DATA_KEYS_COUNT],
            [
              key,
              typeof version === 'string' ? version : '',
              json,
              String(limits.maxKeysPerApp),
              app,
              String(limits.maxDataAppsPerSubject),
              String(limits.maxDataApps),
              String(limits.maxDataKeysPerSubject),
              String(limits.maxDataKeys),
            ],
          )) as [string, number?]
          if (outcome === 'ok') return info
          if (outcome !== 'conflict') throw refusedPut(app, outcome, Number(used), limits)
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
        if (typeof stored !== 'string') throw noDataError(app, key)
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
    forSubject(subject: string | undefined, owner?: string) {
      checkSubject(subject, 'forSubject')
      return inSubjectSpace(subject === undefined ? shared : space(subjectPrefix(subjectScope(subject))), subject, owner)
    },

    async close(): Promise<void> {
      if (closed) return
      closed = true
      client.destroy()
    },
  }
  return Object.freeze(store)
}
