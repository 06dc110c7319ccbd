import type { Recipe } from './recipe.js'

/** The `host-capabilities` recipe. */
export const hostCapabilities: Recipe = {
  name: 'host-capabilities',
  title: 'Host capabilities: what the host supports, and degrading gracefully',
  description: 'What the host supports (display modes, downloads, links, theme) and how to degrade when it does not.',
  text: `# Host capabilities: what the host supports, and degrading gracefully

Hosts differ. Some give a fullscreen mode, some can download files or open links, some send a full
theme (colors, fonts) and some only say light or dark. Check before you offer a feature.

## What to look at

The host's handshake answer has \`hostCapabilities\` (\`openLinks\`, \`downloadFile\`, \`serverTools\`,
\`serverResources\`, \`logging\`, \`sampling\`, \`updateModelContext\`, \`message\`) and \`hostContext\`
(\`theme\`, \`styles.variables\`, \`displayMode\`, \`availableDisplayModes\`, \`containerDimensions\`,
\`locale\`, \`timeZone\`, \`platform\`).

| If the host lacks... | Then |
| --- | --- |
| \`openLinks\` | show the URL as text the user can copy |
| \`downloadFile\` | show the content in a \`<pre>\` or send it to the chat with a message |
| \`fullscreen\` in \`availableDisplayModes\` | keep one compact inline layout |
| \`styles.variables\` | use your own colors, following \`theme\` (light or dark) |
| \`sampling\` | ask the agent over the channel instead of asking the host's model |

## In a component

\`MCP.select('host')\` delivers the handshake answer, and \`MCP.select('host-context-changed')\`
the context, now and after every change:

\`\`\`jsx duet-component
function Capabilities({ state }) {
  return (
    <div className={state.theme === 'dark' ? 'caps dark' : 'caps'}>
      <p className="host">{state.host ? \`\${state.host.name} \${state.host.version}\` : 'Waiting for the host...'}</p>
      {state.canFullscreen ? <button type="button" className="full">Full screen</button> : null}
      {state.canDownload ? <button type="button" className="save">Download</button> : <pre className="text">{state.text}</pre>}
    </div>
  )
}

Capabilities.initialState = { host: null, theme: 'light', canFullscreen: false, canDownload: false, text: 'Some results' }

Capabilities.intent = ({ DOM, MCP }) => ({
  HOST: MCP.select('host'),
  CONTEXT: MCP.select('host-context-changed'),
  FULL: DOM.click('.full'),
  SAVE: DOM.click('.save'),
})

Capabilities.model = {
  HOST: {
    STATE: (state, answer) => ({ ...state, host: answer.hostInfo, canDownload: Boolean(answer.hostCapabilities?.downloadFile) }),
    // Tell the agent what this host can do; it reads it with tail_server_log.
    MCP: (state, answer) => ({ callTool: 'write_server_log', args: { level: 'info', message: 'host capabilities', data: answer.hostCapabilities ?? {} } }),
  },
  CONTEXT: (state, context) => ({
    ...state,
    theme: context.theme ?? state.theme,
    canFullscreen: (context.availableDisplayModes ?? []).includes('fullscreen'),
  }),
  FULL: { MCP: () => ({ displayMode: 'fullscreen' }) },
  SAVE: { MCP: (state) => ({ downloadFile: { uri: 'file:///results.txt', mimeType: 'text/plain', text: state.text } }) },
}

export default Capabilities
\`\`\`

## In an HTML fragment

Scripts of a \`display_ui_to_user\` fragment get \`window.duet\`: \`duet.host\` is the handshake answer
(\`{ hostInfo, hostCapabilities }\`), \`duet.hostContext\` the current context, and \`duet.onTheme(fn)\`
hears every change. An inspector that logs what the host reports, for you to read with
\`tail_server_log\`:

\`\`\`html fragment
<button id="inspect">Report host capabilities</button>
<pre id="out"></pre>
<script>
  document.getElementById('inspect').addEventListener('click', async () => {
    const report = { host: duet.host, context: duet.hostContext }
    document.getElementById('out').textContent = JSON.stringify(report, null, 2)
    await duet.log('info', 'host report', report)
  })
</script>
\`\`\`

Values are read on click, after the handshake, so the report is never empty for timing reasons.
`,
}
