import { run } from 'duetkit'
import { makeMcpAppDriver } from 'duetkit/mcp'
import App from './App.jsx'
import './styles.css'

// The protocol asks a view to list every display mode it supports; this one fits inline and full screen.
run(App, { MCP: makeMcpAppDriver({ availableDisplayModes: ['inline', 'fullscreen'] }) })
