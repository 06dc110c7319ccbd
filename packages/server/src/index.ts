/** @module @duetkit/server */
// @duetkit/server: the server core. MCP servers whose tools come with interactive views, served over
// stdio and HTTP, with authorization, view state and the one error model. It loads no channel store,
// no agent-apps room, no dev host and no check: those are the entry points `@duetkit/server/channels`,
// `/apps`, `/dev` and `/check`, so a project that only serves app tools neither installs nor loads
// SQLite, esbuild, Redis or Playwright.
export * from './server/index.js'
