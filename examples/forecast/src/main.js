import { run } from 'duet'
import { makeMcpAppDriver } from 'duet/mcp'
import App from './App.jsx'
import './styles.css'

run(App, { MCP: makeMcpAppDriver({ appInfo: { name: 'forecast', version: '1.0.0' } }) })
