import { registerAgentAppTools } from '../apps/register.js'
import { openChannelStore, registerChannelTools } from '../channel/index.js'
import { createAppServer, type AppServer } from './app-server.js'

/** Options of {@link createAgentAppsServer}. */
export interface AgentAppsOptions {
  /** Where the channel store keeps its data; default `$DUET_DATA_DIR`, else the per-user data folder. */
  dataDir?: string
  /** Reported to clients as the server version. */
  version?: string
}

const INSTRUCTIONS =
  'Duet agent-apps server. Channels carry messages between you and an app view: open one, send to the app, ' +
  'and read what the app sends back. Run `duet wait` to block until the app has written. ' +
  'Recipes explain how to build apps: list_recipes, then get_recipe (start with getting-started).'

/**
 * Builds the server `duet serve` runs: the channel tools over a store opened in `dataDir`. Display tools
 * join here later, so every transport serves the same assembly. The store closes with the server.
 */
export async function createAgentAppsServer(options: AgentAppsOptions = {}): Promise<AppServer> {
  const store = await openChannelStore(options.dataDir === undefined ? {} : { dataDir: options.dataDir })
  try {
    const app = createAppServer({ name: 'duet', version: options.version ?? '0.1.0', instructions: INSTRUCTIONS })
    registerChannelTools(app, store)
    registerAgentAppTools(app, options.dataDir === undefined ? {} : { dataDir: options.dataDir })
    return app.onClose(() => store.dispose())
  } catch (err) {
    await store.dispose()
    throw err
  }
}
