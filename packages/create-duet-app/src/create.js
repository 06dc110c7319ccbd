import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { duetCheckoutRoot, findDuetCheckout, vendorDuet } from './vendor.js'
import { CreateError } from './errors.js'
import { runNpm } from './npm.js'
import { checkNotInCheckout, checkProjectName } from './project-name.js'
import { renderTemplate } from './templates.js'

/**
 * @typedef {object} CreateOptions
 * @property {string} name npm package name (the project goes in `<cwd>/<name>`, without its scope), or a
 *   path to the project's folder, whose last part is the package name
 * @property {string} template e.g. `'mcp-app'`
 * @property {'js'|'ts'} language
 * @property {boolean} [install] run `npm install` in the project (default true)
 * @property {string} [cwd] default `process.cwd()`
 * @property {(line: string) => void} [log] progress lines (default: none)
 */

/**
 * Throws `ALREADY_EXISTS` unless `dir` is missing or an empty folder.
 * @param {string} dir
 */
export function checkTarget(dir) {
  if (!existsSync(dir)) return
  if (!statSync(dir).isDirectory()) throw new CreateError('ALREADY_EXISTS', `${dir} exists and is a file. Pick another name.`, { dir })
  const entries = readdirSync(dir)
  if (entries.length > 0) {
    throw new CreateError(
      'ALREADY_EXISTS',
      `${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}). Nothing was written; pick another name or empty the folder.`,
      { dir },
    )
  }
}

/**
 * Creates a project: checks the name and the target folder, writes the template's files, points
 * `duetkit` and `@duetkit/server` at this checkout when run from one, and installs.
 * @param {CreateOptions} options
 * @returns {Promise<{ dir: string, installed: boolean }>}
 */
export async function createApp({ name, template, language, install = true, cwd = process.cwd(), log = () => {} }) {
  const project = checkProjectName(name, cwd)
  checkNotInCheckout(project, duetCheckoutRoot())
  const { dir } = project
  // Render before touching the disk, so a bad template or language leaves nothing behind.
  const files = renderTemplate({ template, language, name: project.name })
  checkTarget(dir)

  const existed = existsSync(dir)
  try {
    for (const [rel, text] of files) {
      const path = join(dir, rel)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, text)
    }
    const checkout = findDuetCheckout()
    if (checkout) {
      const specs = await vendorDuet(checkout, dir, log)
      const pkg = JSON.parse(files.get('package.json'))
      // Each where the template lists it: the CLI is a devDependency, the rest dependencies.
      for (const [name, spec] of Object.entries(specs)) (pkg.devDependencies?.[name] ? pkg.devDependencies : pkg.dependencies)[name] = spec
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
      for (const { name, version } of checkout.packages) log(`${name} ${version} comes from this checkout: ${specs[name]}`)
    }
  } catch (err) {
    // Leave the folder as it was found: missing, or empty.
    if (existed) for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true })
    else rmSync(dir, { recursive: true, force: true })
    throw err
  }

  if (!install) return { dir, installed: false }
  log('Installing dependencies (npm install)…')
  const result = await runNpm(['install', '--no-audit', '--no-fund'], dir, { inherit: true })
  if (result.code !== 0) {
    throw new CreateError(
      'INSTALL_FAILED',
      `npm install failed in ${dir} (exit ${result.code}). The files are in place: fix the cause and run npm install there.${result.output ? `\n${result.output.trim()}` : ''}`,
      { dir },
    )
  }
  return { dir, installed: true }
}
