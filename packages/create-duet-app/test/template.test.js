import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { LANGUAGES, renderTemplate } from '../src/templates.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const TEMPLATE = here('../templates/mcp-app/')
const EXAMPLE = here('../../../examples/forecast/')

function walk(dir, prefix = '', skip = new Set()) {
  const files = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) files.push(...walk(join(dir, entry.name), rel, skip))
    else files.push(rel)
  }
  return files
}

describe('the mcp-app template', () => {
  it('keeps each file once: what both languages share is in shared/, nothing is repeated in js/ or ts/', () => {
    const shared = new Set(walk(join(TEMPLATE, 'shared')))
    for (const language of Object.keys(LANGUAGES)) {
      const own = walk(join(TEMPLATE, language))
      expect(own.filter((f) => shared.has(f))).toEqual([])
    }
    // A file identical in js/ and ts/ belongs in shared/.
    const js = walk(join(TEMPLATE, 'js'))
    const same = js.filter(
      (f) => existsSync(join(TEMPLATE, 'ts', f)) && readFileSync(join(TEMPLATE, 'js', f), 'utf8') === readFileSync(join(TEMPLATE, 'ts', f), 'utf8'),
    )
    expect(same).toEqual([])
  })

  for (const language of Object.keys(LANGUAGES)) {
    it(`renders the ${language} project with every placeholder filled`, () => {
      const files = renderTemplate({ template: 'mcp-app', language, name: 'my-tool' })
      const ext = language === 'ts' ? 'ts' : 'js'
      expect([...files.keys()]).toEqual(
        expect.arrayContaining([
          '.gitignore',
          'README.md',
          'index.html',
          'package.json',
          'vite.config.js',
          `src/main.${ext}`,
          `src/App.${ext}x`,
          `src/App.test.${ext}x`,
          `server/server.${ext}`,
          `server/forecast.${ext}`,
          `server/server.test.${ext}`,
        ]),
      )
      for (const [path, text] of files) expect(text, path).not.toMatch(/\{\{(name|main|app|server|run)\}\}/)
      expect(files.get('index.html')).toContain(`<script type="module" src="/src/main.${ext}"></script>`)
      expect(files.get('index.html')).toContain('<title>my-tool</title>')
      expect(JSON.parse(files.get('package.json')).name).toBe('my-tool')
      const readme = files.get('README.md')
      expect(readme).toContain(`/absolute/path/to/my-tool/${LANGUAGES[language].vars.run}", "--stdio"`)
      for (const host of ['MCPJam Inspector', 'basic host', 'claude_desktop_config.json', '.vscode/mcp.json']) expect(readme).toContain(host)
      // JSX's own double braces are not placeholders and must survive.
      expect(files.get(`src/App.${ext}x`)).toContain('data={{ date: day.date }}')
    })
  }

  it('asks for the duetkit and @duetkit/server versions this checkout has, zod for the server, and the build and test tools as dev dependencies', () => {
    const duetkit = JSON.parse(readFileSync(here('../../duetkit/package.json'), 'utf8'))
    const server = JSON.parse(readFileSync(here('../../server/package.json'), 'utf8'))
    for (const language of Object.keys(LANGUAGES)) {
      const pkg = JSON.parse(renderTemplate({ template: 'mcp-app', language, name: 'x' }).get('package.json'))
      expect(Object.keys(pkg.dependencies).sort()).toEqual(['@duetkit/server', 'duetkit', 'zod'])
      expect(pkg.dependencies.duetkit).toBe(`^${duetkit.version}`)
      expect(pkg.dependencies['@duetkit/server']).toBe(`^${server.version}`)
      expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['vite', 'vite-plugin-singlefile', 'vitest']))
      // Registry versions only: a checkout's own tarballs are filled in when the project is created.
      const specs = Object.values({ ...pkg.dependencies, ...pkg.devDependencies })
      expect(specs.filter((spec) => !/^[~^]?\d/.test(spec))).toEqual([])
    }
  })

  it("makes the TypeScript project's npm test type-check the view and the server before vitest runs", () => {
    const files = renderTemplate({ template: 'mcp-app', language: 'ts', name: 'x' })
    const { scripts } = JSON.parse(files.get('package.json'))
    expect(scripts.typecheck).toBe('tsc --noEmit -p tsconfig.json && tsc --noEmit -p tsconfig.server.json')
    expect(scripts.test.indexOf('npm run typecheck')).toBe(0)
    expect(scripts.test.indexOf('vitest')).toBeGreaterThan(0)
    // The view's type-check covers the server too, whose type the view imports.
    expect(files.get('tsconfig.json')).toMatch(/"include": \["src", "server"\]/)
  })

  it("exports the server's type, tools included, for the view to import", () => {
    expect(renderTemplate({ template: 'mcp-app', language: 'ts', name: 'x' }).get('server/server.ts')).toContain(
      'export type ForecastServer = ReturnType<typeof createForecastServer>',
    )
    expect(renderTemplate({ template: 'mcp-app', language: 'js', name: 'x' }).get('server/server.js')).toContain(
      '@typedef {ReturnType<typeof createForecastServer>} ForecastServer',
    )
  })
})

// After changing the template, rewrite the example from it (the files it lists, nothing else):
//   node -e "import('./packages/create-duet-app/src/templates.js').then(({ renderTemplate }) => { const fs = require('node:fs'), path = require('node:path'); for (const [rel, text] of renderTemplate({ template: 'mcp-app', language: 'js', name: 'forecast' })) { const p = path.join('examples/forecast', rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text) } })"
// Then drop "allowScripts" from examples/forecast/package.json: in the workspace the root's policy applies.
describe('examples/forecast', () => {
  it("is exactly the template's JavaScript output for the name forecast, but for allowScripts", () => {
    const files = renderTemplate({ template: 'mcp-app', language: 'js', name: 'forecast' })
    // A project's install-script policy belongs at its root; in this workspace that is the repository's,
    // which allows what the project's does (and better-sqlite3, the repository's own optional dependency).
    const pkg = JSON.parse(files.get('package.json'))
    const root = JSON.parse(readFileSync(join(EXAMPLE, '../../package.json'), 'utf8')).allowScripts
    expect(pkg.allowScripts).toEqual({ esbuild: true })
    expect(root).toEqual({ ...pkg.allowScripts, 'better-sqlite3': true })
    delete pkg.allowScripts
    files.set('package.json', `${JSON.stringify(pkg, null, 2)}\n`)
    // Build output and installed packages are not part of the source.
    const example = walk(EXAMPLE, '', new Set(['node_modules', 'dist'])).sort()
    expect(example).toEqual([...files.keys()])
    for (const [path, text] of files) expect(readFileSync(join(EXAMPLE, path), 'utf8'), path).toBe(text)
  })

  it('npm installs the workspace without a warning about a workspace allowScripts', () => {
    const root = join(EXAMPLE, '../..')
    const workspaces = ['packages', 'examples'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name, 'package.json')))
    for (const file of workspaces.filter((f) => existsSync(f))) expect(JSON.parse(readFileSync(file, 'utf8')).allowScripts, file).toBeUndefined()
    // npm 11 warns at install about a workspace's allowScripts (it is ignored there); a dry run is enough.
    const r = spawnSync('npm', ['install', '--dry-run', '--offline', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/allowScripts in workspace/)
  })
})
