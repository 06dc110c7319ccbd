// The view's entry: run the component with the MCP Apps driver (vite builds it into one HTML file).
import { run } from 'duetkit'
import { makeMcpAppDriver } from 'duetkit/mcp'
import { App } from './App'

run(App, { MCP: makeMcpAppDriver({ appInfo: { name: 'todo', version: '1.0.0' } }) })
