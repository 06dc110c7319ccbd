import { run } from 'duetkit'
import { makeLeanMcpAppDriver, withDisplayModes, withDownloads, withViewState } from 'duetkit/mcp'
import App from './App.jsx'
import './styles.css'

// Only the driver features this view uses end up in its bundle: the kept state (App.persist), display
// modes (the protocol asks a view to list every mode it supports; this one fits inline and full screen)
// and downloads. Its buttons follow the host's capabilities, so it needs no capability checks.
run(App, {
  MCP: makeLeanMcpAppDriver({ features: [withViewState(), withDisplayModes(['inline', 'fullscreen']), withDownloads()] }),
})
