import { describe, expect, it } from 'vitest'
import { LANGUAGES, renderTemplate } from '../src/templates.js'

// A scaffolded project's server carries the project's name, in code, in its log lines and in the host configs.
describe('the starter names its server after the project', () => {
  for (const language of Object.keys(LANGUAGES)) {
    it(`in ${language}`, () => {
      const files = renderTemplate({ template: 'mcp-app', language, name: 'my-tool' })
      const server = files.get(LANGUAGES[language].vars.server)
      expect(server).toContain("createAppServer({ name: 'my-tool', version: '1.0.0' })")
      expect(server).toContain('`my-tool: listening on $' + '{listening.url}\\n`')
      expect(server).toContain("'my-tool: serving MCP on stdio\\n'")
      // What a taken port prints, instead of an uncaught rejection's stack.
      expect(server).toMatch(/process\.stderr\.write\(`my-tool: \$\{err instanceof Error \? err\.message : String\(err\)\}\\n`\)/)
      expect(server).not.toMatch(/name: 'forecast'|forecast: (listening|serving)/)
      const readme = files.get('README.md')
      expect(readme).toContain('"my-tool": { "command": "node"')
      expect(readme).toContain('{ "servers": { "my-tool": { "type": "http"')
    })
  }
})
