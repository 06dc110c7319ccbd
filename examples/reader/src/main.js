import { run } from 'duetkit'
import { agentChannel, makeLeanMcpAppDriver, withAgentChannel } from 'duetkit/mcp'
import Reader from './Reader.jsx'
import './styles.css'

// agentChannel() with no id: the tool that shows the reader (open_reader, or display_component)
// returns the channel as structuredContent.channel_id, and the driver takes it from that result.
// The lean driver: of the driver's features the reader uses the agent channel only.
run(Reader, { MCP: makeLeanMcpAppDriver({ appInfo: { name: 'reader', version: '1.0.0' }, features: [withAgentChannel(agentChannel())] }) })
