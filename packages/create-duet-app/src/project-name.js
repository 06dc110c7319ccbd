import { builtinModules } from 'node:module'
import { basename, dirname, resolve } from 'node:path'
import { CreateError } from './errors.js'

// npm's rules for a new package name: lowercase, URL-safe, no leading dot or underscore, at most
// 214 characters, optionally scoped. No slash outside the scope, so a name can never be a path.
const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/
const RESERVED = new Set(['node_modules', 'favicon.ico'])

/**
 * Checks a project name against npm's package name rules and returns the folder it goes in
 * (`<cwd>/<name>`, without the scope). Throws `INVALID_NAME` saying which rule failed.
 * @param {unknown} name
 * @param {string} cwd
 * @returns {{ name: string, dir: string }}
 */
export function checkProjectName(name, cwd) {
  const fail = (why) => {
    throw new CreateError('INVALID_NAME', `Invalid project name ${JSON.stringify(name)}: ${why}.`, { name })
  }
  if (typeof name !== 'string' || name === '') fail('it is empty')
  if (name.length > 214) fail('npm allows at most 214 characters')
  if (name !== name.trim()) fail('it has leading or trailing spaces')
  if (name !== name.toLowerCase()) fail('npm package names are lowercase')
  if (/[\\/]/.test(name) && !/^@[^/\\]+\/[^/\\]+$/.test(name)) fail('a project name is not a path: no slashes, except in @scope/name')
  if (/^[._]/.test(name)) fail('it cannot start with a dot or an underscore')
  if (!NAME.test(name)) fail("use lowercase letters, digits, '-', '.', '_' and '~' (optionally @scope/name), no slashes or spaces")
  const bare = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name
  if (RESERVED.has(bare)) fail(`'${bare}' is reserved by npm`)
  if (builtinModules.includes(bare)) fail(`'${bare}' is the name of a Node.js core module`)
  const dir = resolve(cwd, bare)
  // The pattern already rules out separators; this keeps that true should the pattern ever change.
  if (dirname(dir) !== resolve(cwd) || basename(dir) !== bare) fail('it must name a folder inside the current one')
  return { name, dir }
}
