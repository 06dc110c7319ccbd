// The smallest useful view on Duet: shows the tool's input and result, with the driver's core only.
import { run } from 'duetkit'
import { makeLeanMcpAppDriver } from 'duetkit/mcp'

function App({ state }) {
  return (
    <main>
      <h1>{state.city || 'Waiting'}</h1>
      <p className="result">{state.result}</p>
    </main>
  )
}
App.initialState = { city: '', result: '' }
App.intent = ({ MCP }) => ({ INPUT: MCP.select('tool-input'), RESULT: MCP.select('tool-result') })
App.model = {
  INPUT: (state, args) => ({ ...state, city: args.city ?? '' }),
  RESULT: (state, result) => ({ ...state, result: result.content?.[0]?.text ?? '' }),
}

run(App, { MCP: makeLeanMcpAppDriver({ appInfo: { name: 'minimal', version: '1.0.0' } }) })
