/** @module @duetkit/server/channels */
// @duetkit/server/channels: durable agent<->app channels (the store backends and the channel tools).
// The SQLite backend uses Node's built-in driver or the better-sqlite3 peer, the Redis one the redis peer;
// each loads only when a store of its kind opens.
export * from './channel/index.js'
