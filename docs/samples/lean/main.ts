// A view whose bundle carries only the driver features it uses: view state, display modes, downloads.
import { run } from 'duetkit'
import { makeLeanMcpAppDriver, withDisplayModes, withDownloads, withViewState } from 'duetkit/mcp'
import { App } from '../todo/App'

run(App, { MCP: makeLeanMcpAppDriver({ features: [withViewState(), withDisplayModes(['inline', 'fullscreen']), withDownloads()] }) })
