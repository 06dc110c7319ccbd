/** @module @duetkit/server/dev */
// @duetkit/server/dev: the `duet dev` local host as a library (the page, its sandbox origin and one
// MCP connection a configured server).
export { startDevServer, type DevServer, type DevServerOptions } from './dev/dev-server.js'
export type { ServerSpec } from './dev/connections.js'
