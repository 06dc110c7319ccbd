/** @module @duetkit/server/apps */
// @duetkit/server/apps: the agent-apps room (display tools and shell, saved apps, app data, logs,
// recipes) and `createAgentAppsServer`, what `duet serve` runs. display_component compiles with the
// esbuild peer, loaded at the first compile.
export * from './apps/index.js'
