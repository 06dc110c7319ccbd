import { run } from 'duetkit'
import { agentChannel, makeMcpAppDriver } from 'duetkit/mcp'
import Reader from './Reader.jsx'
import './styles.css'

// agentChannel() with no id: the tool that shows the reader (open_reader, or display_component)
// returns the channel as structuredContent.channel_id, and the driver takes it from that result.
run(Reader, { MCP: makeMcpAppDriver({ appInfo: { name: 'reader', version: '1.0.0' }, channel: agentChannel() }) })
