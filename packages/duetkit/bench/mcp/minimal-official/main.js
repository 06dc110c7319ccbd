// The same minimal view on the official ext-apps App.
import { App } from '@modelcontextprotocol/ext-apps'

const root = document.getElementById('root')
root.innerHTML = '<main><h1>Waiting</h1><p class="result"></p></main>'
const app = new App({ name: 'minimal', version: '1.0.0' })
app.ontoolinput = ({ arguments: args }) => {
  root.querySelector('h1').textContent = args?.city || 'Waiting'
}
app.ontoolresult = (result) => {
  root.querySelector('.result').textContent = result.content?.[0]?.text ?? ''
}
app.connect()
