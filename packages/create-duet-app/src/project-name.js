import { builtinModules } from 'node:module'
import { basename, isAbsolute, relative, resolve } from 'node:path'
import { CreateError } from './errors.js'

// npm's rules for a new package name: lowercase, URL-safe, no leading dot or underscore, at most
// 214 characters, optionally scoped.
const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/
const SCOPED = /^@[^/\\]+\/[^/\\]+$/
const RESERVED = new Set(['node_modules', 'favicon.ico'])

/**
 * Whether the argument names a folder rather than a package: absolute, `.`/`..`, or with a separator
 * that is not the one of `@scope/name`.
 * @param {string} arg
 */
export function isProjectPath(arg) {
  return isAbsolute(arg) || arg === '.' || arg === '..' || (/[\\/]/.test(arg) && !SCOPED.test(arg))
}

/**
 * The project an argument asks for. A name (`my-tool`, `@acme/tool`) goes in `<cwd>/<name>` (without
 * the scope); a path (`/abs/my-tool`, `../my-tool`, `apps/my-tool`, `.`) is the folder itself, and its
 * last part is the package name. Either way the name must pass npm's rules; `INVALID_NAME` says which
 * rule failed and names the argument.
 * @param {unknown} arg
 * @param {string} cwd
 * @returns {{ name: string, dir: string, path: boolean }}
 */
export function checkProjectName(arg, cwd) {
  if (typeof arg !== 'string' || arg === '') throw new CreateError('INVALID_NAME', `Invalid project name ${JSON.stringify(arg)}: it is empty.`, { name: arg })
  const path = isProjectPath(arg)
  const dir = path ? resolve(cwd, arg) : resolve(cwd, arg.startsWith('@') ? arg.slice(arg.indexOf('/') + 1) : arg)
  const name = path ? basename(dir) : arg
  const fail = (why) => {
    const what = path
      ? `Invalid project name ${JSON.stringify(name)} (the last part of the path ${JSON.stringify(arg)})`
      : `Invalid project name ${JSON.stringify(arg)}`
    throw new CreateError('INVALID_NAME', `${what}: ${why}.${path ? ' The folder name is the npm package name: give a path ending in one.' : ''}`, {
      name: arg,
    })
  }
  if (name === '') fail('it is empty')
  if (name.length > 214) fail('npm allows at most 214 characters')
  if (name !== name.trim()) fail('it has leading or trailing spaces')
  if (name !== name.toLowerCase()) fail('npm package names are lowercase')
  if (!path && /[\\/]/.test(name) && !SCOPED.test(name)) fail('use @scope/name for a scoped name')
  if (/^[._]/.test(name)) fail('it cannot start with a dot or an underscore')
  if (!NAME.test(name)) fail("use lowercase letters, digits, '-', '.', '_' and '~' (optionally @scope/name), no spaces")
  const bare = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name
  if (RESERVED.has(bare)) fail(`'${bare}' is reserved by npm`)
  if (builtinModules.includes(bare)) fail(`'${bare}' is the name of a Node.js core module`)
  return { name, dir, path }
}

/**
 * A bare name run inside the Duet checkout would put the project in the clone (`git status` full of
 * it, the workspace's config above it). Throws `INVALID_NAME` saying so and what to type instead; a
 * path, even one inside the checkout, is taken as asked.
 * @param {{ name: string, dir: string, path: boolean }} project
 * @param {string | undefined} checkoutRoot the Duet checkout this scaffolder runs from, if any
 */
export function checkNotInCheckout(project, checkoutRoot) {
  if (project.path || checkoutRoot === undefined) return
  const rel = relative(checkoutRoot, project.dir)
  if (rel.startsWith('..') || isAbsolute(rel)) return
  throw new CreateError(
    'INVALID_NAME',
    `${project.dir} is inside the Duet checkout (${checkoutRoot}). Give a path outside it, e.g. ../${basename(project.dir)} or an absolute path; to create it in the checkout after all, give the path, e.g. ./${basename(project.dir)}.`,
    { name: project.name, dir: project.dir },
  )
}
