import { run } from 'duet'
import { makeMcpAppDriver } from 'duet/mcp'
import Reader from './Reader.jsx'
import './styles.css'

// The display tool writes the render's channel id into the page; questions and answers travel on it.
const channel = document.querySelector('meta[name="duet-channel"]')?.getAttribute('content') ?? undefined

run(Reader, { MCP: makeMcpAppDriver({ appInfo: { name: 'reader', version: '1.0.0' }, channel }) })
