// @duetkit/server: MCP servers whose tools come with interactive views (the server core), durable
// agent<->app channels, and the agent-apps server `duet serve` runs. One import for all three.
export * from './server/index.js'
export * from './channel/index.js'
export * from './apps/index.js'
