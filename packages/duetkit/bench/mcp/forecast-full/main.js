// The forecast example on makeMcpAppDriver (every driver feature), for bench:mcp to weigh against the
// example itself, which names only the features it uses with makeLeanMcpAppDriver.
import { run } from 'duetkit'
import { makeMcpAppDriver } from 'duetkit/mcp'
import App from '../../../../../examples/forecast/src/App.jsx'
import '../../../../../examples/forecast/src/styles.css'

run(App, { MCP: makeMcpAppDriver({ availableDisplayModes: ['inline', 'fullscreen'] }) })
