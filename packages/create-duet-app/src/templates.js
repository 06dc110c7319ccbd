import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CreateError } from './errors.js'

const ROOT = fileURLToPath(new URL('../templates/', import.meta.url))

/** The templates and what the prompt says about each. */
export const TEMPLATES = {
  'mcp-app': 'an MCP App (the get_forecast tool with an interactive view), its server and tests',
}

/**
 * The languages, with the values their files' `{{placeholders}}` take. A template keeps the files
 * both languages share in `shared/` and the rest in `js/` and `ts/`.
 */
export const LANGUAGES = {
  js: { label: 'JavaScript', vars: { main: 'src/main.js', app: 'src/App.jsx', server: 'server/server.js', run: 'server/server.js' } },
  ts: { label: 'TypeScript', vars: { main: 'src/main.ts', app: 'src/App.tsx', server: 'server/server.ts', run: 'build/server.js' } },
}

// npm leaves `.gitignore` out of published packages, so templates store it under another name.
const RENAMED = { _gitignore: '.gitignore' }

function walk(dir, prefix = '') {
  const files = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) files.push(...walk(join(dir, entry.name), rel))
    else files.push(rel)
  }
  return files
}

/**
 * The files of `template` in `language`, rendered for the project `name`: relative path → text.
 * Placeholders are `{{name}}` and the language's variables; anything else in braces is left alone.
 * @param {{ template: string, language: string, name: string }} options
 * @returns {Map<string, string>}
 */
export function renderTemplate({ template, language, name }) {
  if (!Object.hasOwn(TEMPLATES, template)) {
    throw new CreateError('NOT_FOUND', `Unknown template '${template}'. Templates: ${Object.keys(TEMPLATES).join(', ')}.`, { template })
  }
  if (!Object.hasOwn(LANGUAGES, language)) {
    throw new CreateError('NOT_FOUND', `Unknown language '${language}': use js or ts.`, { language })
  }
  const vars = { name, ...LANGUAGES[language].vars }
  const out = new Map()
  for (const layer of ['shared', language]) {
    const dir = join(ROOT, template, layer)
    for (const rel of walk(dir)) {
      const target = rel
        .split('/')
        .map((part) => RENAMED[part] ?? part)
        .join('/')
      const text = readFileSync(join(dir, rel), 'utf8').replace(/\{\{(\w+)\}\}/g, (all, key) => (Object.hasOwn(vars, key) ? vars[key] : all))
      out.set(target, text)
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)))
}
